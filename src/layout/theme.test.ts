/**
 * Both themes keep text readable: body text, secondary text, links (primary) and the warning
 * reasons of the parser review at least 4.5:1 (WCAG AA) on the page and on cards, and a contained
 * button's label on its colour too.
 */
import { createTheme, getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { darkTheme, theme } from './theme';

const AA = 4.5;

describe.each([
  ['light', theme],
  ['dark', darkTheme],
])('the %s theme', (_name, options) => {
  const t = createTheme(options);
  const backgrounds = [t.palette.background.default, t.palette.background.paper];

  it('keeps text, links and warnings at AA contrast on its backgrounds', () => {
    for (const bg of backgrounds) {
      for (const fg of [t.palette.text.primary, t.palette.text.secondary, t.palette.primary.main, t.palette.warning.dark, t.palette.error.main]) {
        expect(getContrastRatio(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(AA);
      }
    }
    expect(getContrastRatio(t.palette.primary.contrastText, t.palette.primary.main)).toBeGreaterThanOrEqual(AA);
  });
});

it('offers a dark theme that is dark', () => {
  expect(createTheme(darkTheme).palette.mode).toBe('dark');
});

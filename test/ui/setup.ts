/**
 * jsdom lacks a few browser APIs that react-admin, MUI and recharts use. These stand-ins are the
 * minimum to render real pages; none of them changes what a test can observe.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure, getConfig } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import type * as Recharts from 'recharts';
import type * as Theme from '../../src/layout/theme';
import { afterEach, beforeAll, vi } from 'vitest';
import { preloadLazyViews } from '../../src/components/lazyView';
import { speedUpLabels } from './fastLabels';
import { memoizeComputedStyle, speedUpComputedStyle } from './fastStyles';

// Page tests run the real service and BFF in the same worker: on a loaded machine an answer can
// take much longer than Testing Library's default 1 s wait. A wait ends as soon as what it waits
// for is there; this is only how long to wait for what never comes.
configure({ asyncUtilTimeout: 20_000 });

// A query that finds nothing builds an error holding the whole page, pretty-printed; inside a wait
// (findBy…, waitFor) that happens at every retry, and the page of a real-stack test is large.
// There the page is printed only when the message is read, which a wait does once, when it
// gives up: a failure still shows the page as it was then; a wait that succeeds never prints it.
const defaultGetElementError = getConfig().getElementError;
configure({
  getElementError(message, container) {
    if (!(getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics) {
      return defaultGetElementError(message, container);
    }
    const error = new Error(message ?? '');
    error.name = 'TestingLibraryElementError';
    let full: string | undefined;
    Object.defineProperty(error, 'message', {
      configurable: true,
      get: () => (full ??= defaultGetElementError(message, container).message),
      set: (value: string) => {
        full = value;
      },
    });
    return error;
  },
});

// getComputedStyle without matching an element against the style rules it cannot match, and
// without recomputing what has not changed (fastStyles.ts).
speedUpComputedStyle(document, window);
memoizeComputedStyle(document, window);
// label.control by jsdom's id cache instead of a walk of the whole page per label (fastLabels.ts).
speedUpLabels(document);

// The dashboard's views load on first use (src/components/lazyView.ts); compile them before the
// tests start rather than inside the first test that opens one.
beforeAll(() => preloadLazyViews(), 180_000);

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals(); // unit tests may stub fetch
  vi.restoreAllMocks(); // console spies a test may have set up
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

// MUI's useMediaQuery (react-admin picks its desktop or mobile layout with it). Width queries are
// answered for jsdom's 1024px-wide window, so tests see the desktop layout a coordinator sees.
function matchesWidth(query: string): boolean {
  const width = window.innerWidth;
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  return (!min || width >= Number(min[1])) && (!max || width <= Number(max[1])) && Boolean(min || max);
}
window.matchMedia ??= (query: string) =>
  ({
    matches: matchesWidth(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

// react-admin scrolls to the top on navigation; jsdom only logs "not implemented".
window.scrollTo = () => {};

// No animations in page tests: MUI's transitions (dialogs, menus, snackbars appearing and going)
// take no time, and buttons make no ripple (a ripple is two renders and a timer per click). Only
// the test's theme changes; what is shown, and when it is there or gone, does not.
vi.mock('../../src/layout/theme', async (importOriginal) => {
  const themes = await importOriginal<typeof Theme>();
  if (process.env.LABDESK_TEST_ANIMATIONS) return themes;
  const none = { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 };
  const quiet = (theme: typeof themes.theme): typeof themes.theme => {
    const components = theme.components ?? {};
    return {
      ...theme,
      transitions: { ...theme.transitions, duration: none },
      components: { ...components, MuiButtonBase: { ...components.MuiButtonBase, defaultProps: { ...components.MuiButtonBase?.defaultProps, disableRipple: true } } },
    };
  };
  return { ...themes, theme: quiet(themes.theme), darkTheme: quiet(themes.darkTheme) };
});

// jsdom has no layout, so every element measures 0×0 and recharts' ResponsiveContainer would
// render nothing. Give it a fixed size instead (recharts skips measuring when both are numbers).
vi.mock('recharts', async (importOriginal) => {
  const actual = await importOriginal<typeof Recharts>();
  const FixedSizeContainer = ({ children }: { children: ReactNode }) =>
    createElement(actual.ResponsiveContainer, { width: 800, height: 300, children });
  return { ...actual, ResponsiveContainer: FixedSizeContainer };
});

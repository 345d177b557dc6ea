/**
 * A calm, high-contrast light theme on top of react-admin's defaults, and its dark twin (the app
 * bar's toggle switches; the first visit follows the system's preference). Dark keeps the same
 * contrast: text, links and warnings at least 4.5:1 on its backgrounds (theme.test.ts checks).
 * System fonts only: the dashboard must not fetch anything from outside hosts (no web fonts).
 */
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { KeyboardRow } from '../components/KeyboardRow';

const systemFonts = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    mode: 'light',
    primary: { main: '#1d5c8c' },
    secondary: { main: '#2a7a68' },
    background: { default: '#f4f6f9', paper: '#ffffff' },
    // MUI's warning.dark (#e65100) is 3.5:1 on the page: too faint for the review's reasons, written in it.
    warning: { main: '#ed6c02', dark: '#a14f00', light: '#ff9800' },
  },
  typography: { fontFamily: systemFonts },
  shape: { borderRadius: 8 },
  sidebar: { width: 220, closedWidth: 56 },
  components: {
    ...defaultTheme.components,
    MuiPaper: { defaultProps: { elevation: 0 }, styleOverrides: { root: { border: '1px solid #e2e6ec' } } },
    MuiAppBar: { defaultProps: { elevation: 0 }, styleOverrides: { root: { border: 'none' } } },
    MuiChip: { defaultProps: { size: 'small' } },
    // Every list's rows open by keyboard as by click (components/KeyboardRow.tsx).
    RaDataTableBody: { defaultProps: { row: KeyboardRow } },
  } as RaThemeOptions['components'],
};

export const darkTheme: RaThemeOptions = {
  ...theme,
  palette: {
    mode: 'dark',
    primary: { main: '#8cc4ee' },
    secondary: { main: '#7fd3bf' },
    background: { default: '#121518', paper: '#1b1f24' },
    // Pages write warnings' reasons in warning.dark (dark on a light tint): on a dark page that
    // shade must be the light one, or the reasons could not be read.
    warning: { main: '#ffb74d', dark: '#ffd08a', light: '#ffe0b2' },
    error: { main: '#ff8a80' },
    success: { main: '#81c995' },
  },
  components: {
    ...theme.components,
    MuiPaper: { defaultProps: { elevation: 0 }, styleOverrides: { root: { border: '1px solid #2f353d' } } },
  } as RaThemeOptions['components'],
};

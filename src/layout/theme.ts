/**
 * A calm, high-contrast light theme on top of react-admin's defaults.
 * System fonts only: the dashboard must not fetch anything from outside hosts (no web fonts).
 */
import { defaultTheme, type RaThemeOptions } from 'react-admin';

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
  },
  typography: { fontFamily: systemFonts },
  shape: { borderRadius: 8 },
  sidebar: { width: 220, closedWidth: 56 },
  components: {
    ...defaultTheme.components,
    MuiPaper: { defaultProps: { elevation: 0 }, styleOverrides: { root: { border: '1px solid #e2e6ec' } } },
    MuiAppBar: { defaultProps: { elevation: 0 }, styleOverrides: { root: { border: 'none' } } },
    MuiChip: { defaultProps: { size: 'small' } },
  },
};

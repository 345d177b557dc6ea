/** The review shortcuts, always on screen: people who review all day learn them by seeing them. */
import { Box, Typography } from '@mui/material';

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export const SHORTCUTS = (mac = isMac()): [string, string][] => [
  ['Enter or Alt+↓ (n)', 'next doubtful cell'],
  ['Shift+Enter or Alt+↑ (p)', 'previous doubtful cell'],
  ['Tab / Shift+Tab', 'next / previous cell'],
  [mac ? '⌘+Enter' : 'Ctrl+Enter', 'approve (asks first)'],
];

export const ShortcutHelp = () => (
  <Box component="section" aria-label="Keyboard shortcuts" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, mb: 1 }}>
    {SHORTCUTS().map(([keys, action]) => (
      <Typography key={keys} variant="caption" color="text.secondary">
        <Box component="kbd" sx={{ fontFamily: 'monospace', px: 0.5, border: '1px solid', borderColor: 'divider', borderRadius: 0.5, bgcolor: 'background.default' }}>
          {keys}
        </Box>{' '}
        {action}
      </Typography>
    ))}
  </Box>
);

/** How a doubtful cell (or row) stands out, and how the compact cell inputs look. */
import { alpha, type Theme } from '@mui/material/styles';
import type { SystemStyleObject } from '@mui/system';

export const doubtfulSx = (doubtful: boolean): SystemStyleObject<Theme> =>
  doubtful
    ? {
        bgcolor: (theme: Theme) => alpha(theme.palette.warning.main, 0.12),
        boxShadow: (theme: Theme) => `inset 3px 0 0 ${theme.palette.warning.main}`,
      }
    : {};

export const cellSx: SystemStyleObject<Theme> = { verticalAlign: 'top', py: 1, px: 1 };

/** A compact bordered input: red when invalid, amber when doubtful, a clear ring on focus. */
export const inputSx = (invalid: boolean, doubtful: boolean): SystemStyleObject<Theme> => ({
  fontSize: 14,
  px: 0.75,
  py: 0.25,
  border: '1px solid',
  borderColor: invalid ? 'error.main' : doubtful ? 'warning.main' : 'divider',
  borderRadius: 1,
  bgcolor: 'background.paper',
  '&.Mui-focused': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 1 },
});

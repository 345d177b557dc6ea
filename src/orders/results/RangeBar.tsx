/**
 * Where a value sits against its reference range: the range as a band on a short track, the value as
 * a dot (red beyond the range). Ranges open on one side ("<200") get a band to the track's end.
 */
import { Box, Tooltip } from '@mui/material';

interface Props {
  value: number | null;
  min: number | null | undefined;
  max: number | null | undefined;
  label: string;
}

export const RangeBar = ({ value, min, max, label }: Props) => {
  const hasMin = typeof min === 'number';
  const hasMax = typeof max === 'number';
  if (value === null || (!hasMin && !hasMax)) return null;
  // The track spans the range plus half its width either side (a one-sided range: the value's side).
  const lo = hasMin ? min : 0;
  const hi = hasMax ? max : Math.max(lo * 2, value * 1.2, 1);
  const width = hi - lo || Math.abs(hi) || 1;
  const start = Math.min(lo - width / 2, value);
  const end = Math.max(hi + width / 2, value);
  const at = (v: number) => `${((v - start) / (end - start || 1)) * 100}%`;
  const outside = (hasMin && value < min) || (hasMax && value > max);
  return (
    <Tooltip title={label}>
      <Box role="img" aria-label={label} sx={{ position: 'relative', height: 10, width: 120, minWidth: 80, bgcolor: 'action.hover', borderRadius: 5 }}>
        <Box sx={{ position: 'absolute', top: 0, bottom: 0, left: at(hasMin ? lo : start), right: `calc(100% - ${at(hasMax ? hi : end)})`, bgcolor: 'success.light', borderRadius: 5, opacity: 0.6 }} />
        <Box
          sx={{
            position: 'absolute',
            top: -2,
            width: 14,
            height: 14,
            ml: '-7px',
            left: at(value),
            borderRadius: '50%',
            bgcolor: outside ? 'error.main' : 'text.primary',
            border: '2px solid',
            borderColor: 'background.paper',
          }}
        />
      </Box>
    </Tooltip>
  );
};

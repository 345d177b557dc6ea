/**
 * The reference range: low and high as two compact inputs (typed as text, so partial numbers can
 * be typed; checked before approval). Read-only: "3.5 – 5.1".
 */
import { memo } from 'react';
import { Box, InputBase, TableCell, Typography } from '@mui/material';
import { cellSx, doubtfulSx, inputSx } from './cellStyle';

interface RangeCellProps {
  cell: string;
  name: string;
  min: string;
  max: string;
  editable: boolean;
  doubtful: boolean;
  describedBy?: string;
  minError?: string;
  maxError?: string;
  changed?: boolean;
  onChange: (bound: 'min' | 'max', value: string) => void;
}

/**
 * A one-sided range as labs print it and as the results history keeps it: "<200", ">3.5". Not
 * "≤ 200": the report said below 200, and the reviewer must see what it said.
 */
export const rangeText = (min: string, max: string) => (min && max ? `${min} – ${max}` : min ? `>${min}` : max ? `<${max}` : '—');

export const RangeCell = memo(function RangeCell({ cell, name, min, max, editable, doubtful, describedBy, minError, maxError, changed, onChange }: RangeCellProps) {
  const errorId = `error-${cell.replace(':', '-')}`;
  const described = [describedBy, (minError || maxError) && errorId].filter(Boolean).join(' ') || undefined;
  const bound = (which: 'min' | 'max', value: string, error: string | undefined) => (
    <InputBase
      value={value}
      onChange={(e) => onChange(which, e.target.value)}
      // Both bounds carry the cell's key: navigation lands on the first (low).
      inputProps={{ 'data-cell': cell, 'aria-label': `${name} range ${which === 'min' ? 'low' : 'high'}`, 'aria-describedby': described, inputMode: 'decimal', 'aria-invalid': Boolean(error) || undefined }}
      sx={{ ...inputSx(Boolean(error), doubtful), width: 64 }}
    />
  );
  return (
    <TableCell sx={{ ...cellSx, ...doubtfulSx(doubtful), minWidth: 160 }} data-doubtful={doubtful || undefined} data-column="range">
      {editable ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          {bound('min', min, minError)}
          <span aria-hidden>–</span>
          {bound('max', max, maxError)}
        </Box>
      ) : (
        <Typography variant="body2" aria-describedby={described}>
          {rangeText(min, max)}
        </Typography>
      )}
      {changed && (
        <Typography variant="caption" color="primary" component="div">
          Corrected
        </Typography>
      )}
      {(minError || maxError) && (
        <Typography id={errorId} variant="caption" color="error" component="div" role="alert">
          {[minError && `Low: ${minError}`, maxError && `High: ${maxError}`].filter(Boolean).join(' · ')}
        </Typography>
      )}
    </TableCell>
  );
});

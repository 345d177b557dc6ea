/**
 * One correctable cell: a compact text input (or, read-only, the text), warning-tinted when
 * doubtful. The reason is on the line under the row (`describedBy` points at it). `data-cell` is
 * how keyboard navigation finds the input.
 */
import { memo, type ReactNode } from 'react';
import { Box, InputBase, TableCell, Typography } from '@mui/material';
import { cellSx, doubtfulSx, inputSx } from './cellStyle';

export interface CellInputProps {
  cell: string;
  label: string;
  value: string;
  editable: boolean;
  doubtful: boolean;
  describedBy?: string;
  error?: string;
  changed?: boolean;
  minWidth: number;
  /** 'block': a part of a cell shared with another field (test name and LOINC), not a cell of its own. */
  as?: 'cell' | 'block';
  /** Shown under the input (e.g. the panel under the test name). */
  caption?: ReactNode;
  onChange: (value: string) => void;
}

export const CellInput = memo(function CellInput({ cell, label, value, editable, doubtful, describedBy, error, changed, minWidth, as = 'cell', caption, onChange }: CellInputProps) {
  const errorId = `error-${cell.replace(':', '-')}`;
  const described = [describedBy, error && errorId].filter(Boolean).join(' ') || undefined;
  const Wrapper = as === 'cell' ? TableCell : Box;
  return (
    <Wrapper
      sx={as === 'cell' ? { ...cellSx, ...doubtfulSx(doubtful), minWidth } : { ...doubtfulSx(doubtful), p: 0.5, minWidth }}
      data-doubtful={doubtful || undefined}
      data-column={cell.split(':')[1]}
    >
      {editable ? (
        <InputBase
          value={value}
          onChange={(e) => onChange(e.target.value)}
          inputProps={{ 'data-cell': cell, 'aria-label': label, 'aria-describedby': described, 'aria-invalid': Boolean(error) || undefined }}
          sx={{ ...inputSx(Boolean(error), doubtful), width: '100%', fontWeight: changed ? 600 : undefined }}
        />
      ) : (
        <Typography variant="body2" aria-describedby={described} sx={{ wordBreak: 'break-word' }}>
          {value || '—'}
        </Typography>
      )}
      {caption}
      {changed && (
        <Typography variant="caption" color="primary" component="div">
          Corrected
        </Typography>
      )}
      {error && (
        <Typography id={errorId} variant="caption" color="error" component="div" role="alert">
          {error}
        </Typography>
      )}
    </Wrapper>
  );
});

/**
 * Which test a result is, as LOINC: the parser's top match, with its other candidates (and "none")
 * to choose from. It sits under the test name, in the same cell: both say which test it is. A native select: it keeps Tab, arrows and type-ahead working as everywhere else,
 * and Enter stays free for moving to the next doubtful cell.
 */
import { memo } from 'react';
import { Box, NativeSelect, Typography } from '@mui/material';
import type { LoincMatch } from '../types';
import { doubtfulSx, inputSx } from './cellStyle';
import { NO_LOINC } from './reviewDraft';

interface LoincFieldProps {
  cell: string;
  name: string;
  value: string;
  matches: LoincMatch[];
  editable: boolean;
  doubtful: boolean;
  describedBy?: string;
  changed?: boolean;
  onChange: (code: string) => void;
}

export const loincLabel = (m: LoincMatch) => `${m.loinc_code} ${m.display_name ?? m.loinc_name} (${Math.round(m.confidence_score * 100)}%)`;

export const LoincField = memo(function LoincField({ cell, name, value, matches, editable, doubtful, describedBy, changed, onChange }: LoincFieldProps) {
  const chosen = matches.find((m) => m.loinc_code === value);
  return (
    <Box sx={{ ...doubtfulSx(doubtful), p: 0.5 }} data-doubtful={doubtful || undefined} data-column="loinc">
      {editable ? (
        <NativeSelect
          value={value}
          onChange={(e) => onChange(e.target.value)}
          // data-* attributes reach the <select> but are not in MUI's prop types.
          inputProps={{ ...({ 'data-cell': cell } as object), 'aria-label': `${name} LOINC`, 'aria-describedby': describedBy }}
          sx={{ ...inputSx(false, doubtful), width: '100%' }}
          disableUnderline
        >
          {matches.map((m) => (
            <option key={m.loinc_code} value={m.loinc_code}>
              {loincLabel(m)}
            </option>
          ))}
          <option value={NO_LOINC}>LOINC: none of these</option>
        </NativeSelect>
      ) : (
        <Typography variant="body2" aria-describedby={describedBy}>
          {chosen ? loincLabel(chosen) : 'LOINC: none'}
        </Typography>
      )}
      {changed && (
        <Typography variant="caption" color="primary" component="div">
          Corrected
        </Typography>
      )}
    </Box>
  );
});

/**
 * Why cells of a row are doubtful, in the service's words, on a full-width line right under the
 * row ("Value: 45 has no decimals…"): the tinted cells are narrow, the reasons need room to be read.
 * Each cell points at its note with aria-describedby, so a screen reader says it on focus.
 */
import { Box, TableCell, TableRow, Typography } from '@mui/material';
import type { ReviewReason } from '../types';
import { doubtfulSx } from './cellStyle';
import type { DoubtColumn, RowDoubts } from './doubts';

export const doubtId = (row: number, column: DoubtColumn) => `doubt-${row}-${column}`;

const COLUMN_LABELS: Record<DoubtColumn, string> = {
  row: 'Row',
  test_name: 'Test',
  value: 'Value',
  units: 'Units',
  range: 'Range',
  loinc: 'LOINC',
};
const ORDER: DoubtColumn[] = ['row', 'test_name', 'loinc', 'value', 'units', 'range'];

const Note = ({ id, label, reasons }: { id: string; label: string; reasons: ReviewReason[] }) => (
  <Box sx={{ display: 'flex', gap: 1 }}>
    <Typography variant="caption" sx={{ fontWeight: 600, minWidth: 48, color: 'warning.dark' }}>
      {label}
    </Typography>
    {/* The id is on the reasons only: the cell's own label already says which cell. */}
    <Box id={id}>
      {reasons.map((r, i) => (
        <Typography key={`${r.code}-${i}`} variant="caption" component="div" sx={{ color: 'warning.dark', lineHeight: 1.4 }} data-code={r.code}>
          {r.message || r.code}
        </Typography>
      ))}
    </Box>
  </Box>
);

export const DoubtRow = ({ row, doubts, columns }: { row: number; doubts: RowDoubts; columns: number }) => {
  const present = ORDER.filter((c) => doubts[c]?.length);
  if (!present.length) return null;
  return (
    <TableRow sx={doubtfulSx(true)} data-doubt-notes={row}>
      <TableCell colSpan={columns} sx={{ pt: 0, pb: 1, px: 1.5, borderBottomColor: 'divider' }}>
        {present.map((c) => (
          <Note key={c} id={doubtId(row, c)} label={COLUMN_LABELS[c]} reasons={doubts[c]!} />
        ))}
      </TableCell>
    </TableRow>
  );
};

/**
 * The extracted results, one row each, in the order the report prints them. Wider than a half
 * screen: it scrolls sideways inside its card rather than squeezing the inputs.
 */
import { forwardRef } from 'react';
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { RowDoubts } from './doubts';
import { ResultRow, type DraftField } from './ResultRow';
import type { DraftResult } from './reviewDraft';

interface ResultsTableProps {
  rows: DraftResult[];
  doubts: RowDoubts[];
  errors: Record<string, string>;
  editable: boolean;
  onChange: (index: number, field: DraftField, value: string) => void;
}

const HEADERS = ['Test, panel and LOINC', 'Value', 'Units', 'Reference range', 'Interpretation'];

export const ResultsTable = forwardRef<HTMLDivElement, ResultsTableProps>(function ResultsTable({ rows, doubts, errors, editable, onChange }, ref) {
  if (!rows.length) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        No results were read off this report.
      </Typography>
    );
  }
  return (
    <TableContainer ref={ref} sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Extracted results" sx={{ minWidth: 680 }}>
        <TableHead>
          <TableRow>
            {HEADERS.map((h) => (
              <TableCell key={h} sx={{ px: 1 }}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, i) => (
            <ResultRow key={i} index={i} row={row} doubts={doubts[i] ?? {}} errors={errors} editable={editable} onChange={onChange} />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
});

/**
 * One extracted result: the correctable cells (test name with its LOINC code, value, units, range)
 * and what follows from them (interpretation, flags), then, if any cell is doubtful, the reasons on a line of their own.
 */
import { memo, useCallback } from 'react';
import { TableCell, TableRow, Typography } from '@mui/material';
import { CellInput } from './CellInput';
import { cellSx, doubtfulSx } from './cellStyle';
import { doubtId, DoubtRow } from './DoubtNote';
import { cellKey, isDoubtfulCell, type CellColumn, type DoubtColumn, type RowDoubts } from './doubts';
import { LoincField } from './LoincField';
import { RangeCell } from './RangeCell';
import { ResultFlags } from './ResultFlags';
import { changedCells, type DraftResult } from './reviewDraft';

export type DraftField = 'test_name' | 'value' | 'units' | 'min' | 'max' | 'loinc';
export const RESULT_COLUMNS = 5;

interface ResultRowProps {
  index: number;
  row: DraftResult;
  doubts: RowDoubts;
  errors: Record<string, string>;
  editable: boolean;
  onChange: (index: number, field: DraftField, value: string) => void;
}

export const ResultRow = memo(function ResultRow({ index, row, doubts, errors, editable, onChange }: ResultRowProps) {
  const name = row.original.test_name || `Row ${index + 1}`;
  const changed = changedCells(row);
  const stale = changed.includes('value') || changed.includes('range');
  const set = useCallback((field: DraftField) => (value: string) => onChange(index, field, value), [index, onChange]);
  const setBound = useCallback((bound: 'min' | 'max', value: string) => onChange(index, bound, value), [index, onChange]);
  const err = (field: string) => errors[`results.${index}.${field}`];
  const rowDoubt = Boolean(doubts.row?.length);
  const doubtful = (c: CellColumn) => isDoubtfulCell(doubts, c);
  // A cell is described by its own reasons; the row's reasons also describe the test and the value.
  const described = (c: DoubtColumn) =>
    [doubts[c]?.length && doubtId(index, c), rowDoubt && (c === 'test_name' || c === 'value') && doubtId(index, 'row')].filter(Boolean).join(' ') || undefined;
  const panel = row.original.source_panel_name;
  return (
    <>
      <TableRow sx={doubtfulSx(rowDoubt)} data-doubtful-row={rowDoubt || undefined} aria-label={name}>
        {/* Which test it is: the name as printed, its panel, and its LOINC code. */}
        <TableCell sx={{ ...cellSx, minWidth: 230 }}>
          <CellInput
            as="block"
            cell={cellKey(index, 'test_name')}
            label={`${name} test name`}
            value={row.test_name}
            editable={editable}
            doubtful={doubtful('test_name')}
            describedBy={described('test_name')}
            error={err('test_name')}
            changed={changed.includes('test_name')}
            minWidth={200}
            caption={
              panel ? (
                <Typography variant="caption" color="text.secondary" component="div" title="Panel">
                  {panel}
                </Typography>
              ) : undefined
            }
            onChange={set('test_name')}
          />
          <LoincField
            cell={cellKey(index, 'loinc')}
            name={name}
            value={row.loinc}
            matches={row.original.loinc_matches ?? []}
            editable={editable}
            doubtful={doubtful('loinc')}
            describedBy={described('loinc')}
            changed={changed.includes('loinc')}
            onChange={set('loinc')}
          />
        </TableCell>
        <CellInput
          cell={cellKey(index, 'value')}
          label={`${name} value`}
          value={row.value}
          editable={editable}
          doubtful={doubtful('value')}
          describedBy={described('value')}
          error={err('value')}
          changed={changed.includes('value')}
          minWidth={90}
          onChange={set('value')}
        />
        <CellInput
          cell={cellKey(index, 'units')}
          label={`${name} units`}
          value={row.units}
          editable={editable}
          doubtful={doubtful('units')}
          describedBy={described('units')}
          error={err('units')}
          changed={changed.includes('units')}
          minWidth={80}
          onChange={set('units')}
        />
        <RangeCell
          cell={cellKey(index, 'range')}
          name={name}
          min={row.min}
          max={row.max}
          editable={editable}
          doubtful={doubtful('range')}
          describedBy={described('range')}
          minError={err('min_reference_range')}
          maxError={err('max_reference_range')}
          changed={changed.includes('range')}
          onChange={setBound}
        />
        <TableCell sx={{ ...cellSx, minWidth: 100 }}>
          <ResultFlags result={row.original} stale={stale} />
        </TableCell>
      </TableRow>
      <DoubtRow row={index} doubts={doubts} columns={RESULT_COLUMNS} />
    </>
  );
});

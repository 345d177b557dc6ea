import { describe, expect, it } from 'vitest';
import { readTransposed } from '../../../server/service/reader/transposedTable';
import { readTables } from '../../../server/service/reader/tableReader';
import { page, table } from './helpers';

/** A flowsheet: one column per analyte, rows of units, ranges and one row of values per collection. */
const flowsheet = page([
  [60, [[34, 'Mountain View Regional Medical Center'], [520, 'LABORATORY FLOWSHEET']]],
  [90, [[34, 'Lipid Panel (1 of 2)']]],
  ...table(104, [
    [[34, 'Component'], [138, 'Chol'], [195, 'Trig'], [252, 'HDL'], [309, 'LDL (calc)'], [366, 'Chol/HDL']],
    [[34, 'Units'], [138, 'mg/dL'], [195, 'mg/dL'], [252, 'mg/dL'], [309, 'mg/dL']],
    [[34, 'Ref range'], [138, '<200'], [195, '<150'], [252, '>40'], [309, '<100'], [366, '<5.0']],
    [[34, '11/21/2023 15:55'], [138, '202 (H)'], [195, '199 (H)'], [252, '68'], [309, '101 (H)'], [366, '3.1']],
    [[34, 'Acc# 23-CH-379289']],
    [[34, '01/06/2024 09:50'], [138, '204 (H)'], [195, '194 (H)'], [252, '73'], [366, '2.8']],
    [[34, 'Acc# 24-CH-758050']],
  ]),
  [220, [[34, 'Printed 01/07/2024 18:08 by tlindqvist.']]],
]);

describe('a flowsheet (a table on its side)', () => {
  const read = readTransposed(readTables([flowsheet]).otherRows);

  it("reads the newest collection's row under each analyte with its unit and range, the older row being history", () => {
    expect(read.results.map((r) => [r.testName, r.value.value, r.flag ?? '', r.units ?? '', r.rangeText ?? '', r.panel])).toEqual([
      ['Chol', '204', '(H)', 'mg/dL', '<200', 'Lipid Panel'],
      ['Trig', '194', '(H)', 'mg/dL', '<150', 'Lipid Panel'],
      ['HDL', '73', '', 'mg/dL', '>40', 'Lipid Panel'],
      // LDL was not resulted in the newest collection: the 101 of November is no result of this report.
      ['Chol/HDL', '2.8', '', '', '<5.0', 'Lipid Panel'],
    ]);
  });

  it("takes the newest collection's date and accession for the report's", () => {
    expect(read.newestCollection).toEqual({ date: '01/06/2024 09:50', accession: '24-CH-758050' });
  });

  it('leaves the letterhead and the printed line to the metadata reader', () => {
    const left = readTables([flowsheet]).otherRows.filter((r) => !read.used.has(r)).map((r) => r.text);
    expect(left).toEqual(['Mountain View Regional Medical Center  LABORATORY FLOWSHEET', 'Printed 01/07/2024 18:08 by tlindqvist.']);
  });

  it('takes no row of words for a header, even one starting "Component"', () => {
    const prose = page(table(100, [[[34, 'Component'], [138, 'of'], [195, 'the'], [252, 'panel'], [309, 'report']], [[34, '01/06/2024'], [138, '5'], [195, '6'], [252, '7'], [309, '8']]]));
    expect(readTransposed(prose).results).toEqual([]);
  });
});

describe('a flowsheet read by OCR', () => {
  const scanned = page(
    table(100, [
      [[34, 'Component'], [138, '| T Bili'], [195, '"AlkPhos'], [252, 'AST'], [309, 'ALT']],
      [[34, 'Units'], [138, 'mg/dL'], [195, 'U/L'], [252, 'U/L'], [309, 'U/L']],
      [[34, 'Rel range'], [138, '0.1-1.2'], [195, '40-129'], [252, '10-40'], [309, '7-56']],
      [[34, '02/19/2024 08:45'], [138, '0.7'], [195, '131(H)'], [252, '13'], [309, '43']],
    ]),
    1,
    { confidence: 90 },
  );

  it('reads names run together or with a rule beside them, a range row OCR spelled "Rel", and a flag glued to the value', () => {
    expect(readTransposed(scanned).results.map((r) => [r.testName, r.value.value, r.flag ?? '', r.rangeText])).toEqual([
      ['T Bili', '0.7', '', '0.1-1.2'],
      ['AlkPhos', '131', '(H)', '40-129'],
      ['AST', '13', '', '10-40'],
      ['ALT', '43', '', '7-56'],
    ]);
  });
});

describe('flowsheet columns and collections', () => {
  it('puts right-aligned values under the column they start in, and orders 12-hour times', () => {
    const sheet = page(
      table(100, [
        [[34, 'Component'], [138, 'AST'], [238, 'ALT'], [338, 'Sodium'], [438, 'Potassium']],
        [[34, '06/22/2024 11:22 AM'], [211, '25'], [311, '31'], [402, '140'], [506, '4.1']],
        [[34, '06/22/2024 1:05 PM'], [211, '27'], [311, '33'], [402, '141'], [506, '4.3']],
      ]),
    );
    expect(readTransposed(sheet).results.map((r) => [r.testName, r.value.value])).toEqual([
      ['AST', '27'],
      ['ALT', '33'],
      ['Sodium', '141'],
      ['Potassium', '4.3'],
    ]);
  });

  it('counts a row of values whose date OCR garbled as unread, rather than taking an older one for the newest silently', () => {
    const sheet = page(
      table(100, [
        [[34, 'Component'], [138, 'Glucose'], [238, 'BUN'], [338, 'Sodium']],
        [[34, '11/21/2023 15:55'], [138, '99'], [238, '12'], [338, '139']],
        [[34, 'O6/22/2O24 11:22'], [138, '320'], [238, '14'], [338, '141']],
      ]),
    );
    expect(readTransposed(sheet).unreadRows).toBe(1);
  });
});

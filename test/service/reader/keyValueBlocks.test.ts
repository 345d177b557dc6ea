import { describe, expect, it } from 'vitest';
import { readKeyValueBlocks } from '../../../server/service/reader/keyValueBlocks';
import { readTables } from '../../../server/service/reader/tableReader';
import { page, table } from './helpers';

const lines = (texts: string[], start = 100) => page(texts.map((t, i) => [start + i * 11, [[66, t]]] as [number, [number, string][]]));

describe('key–value blocks (EHR exports)', () => {
  const rows = lines([
    'Order: Basic Metabolic Panel',
    'Component: Glucose',
    'Value: 83',
    'Units: mg/dL',
    'Reference range: 65-99',
    'Abnormal flag:',
    'Status: Final',
    'Resulted: 2024-11-06 07:57',
    'Component: Potassium',
    'Value: 5.9',
    'Units: mmol/L',
    'Reference range: 3.5-5.1',
    'Abnormal flag: H',
    'Component: RPR Titer',
    'Status: Pending',
    'Component: Hepatitis C Antibody',
    'Result: Non-Reactive',
    'Reference range: Non-Reactive',
    'Patient: Jane Doe',
  ]);
  const { results, used } = readKeyValueBlocks(rows);

  it('reads each block into one result, with its panel from the order line above', () => {
    expect(results.map((r) => [r.testName, r.value.value, r.units ?? '', r.rangeText ?? '', r.flag ?? '', r.panel])).toEqual([
      ['Glucose', '83', 'mg/dL', '65-99', '', 'Basic Metabolic Panel'],
      ['Potassium', '5.9', 'mmol/L', '3.5-5.1', 'H', 'Basic Metabolic Panel'],
      ['Hepatitis C Antibody', 'Non-Reactive', '', 'Non-Reactive', '', 'Basic Metabolic Panel'],
    ]);
  });

  it('gives nothing for a block without a value, and leaves lines outside blocks to the other readers', () => {
    expect(results.map((r) => r.testName)).not.toContain('RPR Titer');
    expect([...used].map((r) => r.text)).not.toContain('Patient: Jane Doe');
    expect([...used].map((r) => r.text)).not.toContain('Order: Basic Metabolic Panel');
  });

  it('says so when the flag key holds something that is not a flag', () => {
    const [r] = readKeyValueBlocks(lines(['Component: Sodium', 'Value: 139', 'Units: mmol/L', 'Abnormal flag: see note'])).results;
    expect(r!.problems.map((p) => p.code)).toEqual(['conflicting_columns']);
  });
});

describe('a cumulative report (one column per collection)', () => {
  const rows = page([
    [100, [[30, 'Test'], [262, '09/03/2024'], [324, '10/07/2024'], [386, '12/05/2024'], [452, 'Units'], [516, 'Reference Range']]],
    [110, [[262, '12:55'], [324, '07:55'], [386, '11:50']]],
    [118, [[262, '24-133-90818'], [324, '24-177-73828'], [386, '24-129-12118']]],
    ...table(132, [
      [[36, 'GLUCOSE'], [262, '53 L'], [324, '53 L'], [386, '62 L'], [452, 'mg/dL'], [516, '65-99']],
      [[36, 'CREATININE'], [262, '1.25 H'], [324, '1.14 H'], [386, '1.12 H'], [452, 'mg/dL'], [516, '0.50-1.03']],
      [[36, 'ALT'], [262, '7'], [324, '9'], [452, 'U/L'], [516, '6-29']],
    ]),
  ]);
  const read = readTables([rows]);

  it('reads the newest collection’s column as the results, the older ones as history', () => {
    expect(read.results.map((r) => [r.testName, r.value.value, r.flag ?? ''])).toEqual([
      ['GLUCOSE', '62', 'L'],
      ['CREATININE', '1.12', 'H'],
    ]);
  });

  it('takes the newest column’s date, time and accession for the report, and counts no row as unread', () => {
    expect(read.newestCollection).toEqual({ date: '12/05/2024 11:50', accession: '24-129-12118' });
    expect(read.unreadRows).toBe(0);
  });

  it('finds the newest column by its date, wherever it is printed', () => {
    const newestFirst = page([
      [100, [[30, 'Test'], [262, '12/05/2024'], [324, '10/07/2024'], [452, 'Units'], [516, 'Reference Range']]],
      [112, [[36, 'GLUCOSE'], [262, '62 L'], [324, '53 L'], [452, 'mg/dL'], [516, '65-99']]],
    ]);
    expect(readTables([newestFirst]).results.map((r) => r.value.value)).toEqual(['62']);
  });
});

import { describe, expect, it } from 'vitest';
import { colonAsPoint } from '../../../server/service/reader';
import { matchLoinc } from '../../../server/service/reader/loinc';
import type { RawResult } from '../../../server/service/reader/tableReader';
import { parseValueCell } from '../../../server/service/reader/values';

function ocrRow(testName: string, cell: string, units?: string): RawResult {
  const r: RawResult = { testName, value: parseValueCell(cell), page: 1, column: 'result', problems: [], source: 'ocr' };
  if (units) r.units = units;
  return r;
}

function repaired(r: RawResult) {
  colonAsPoint(r, matchLoinc(r.testName, { units: r.units, ocr: r.source === 'ocr' }));
  return r;
}

describe('colonAsPoint', () => {
  it('reads a colon between the digits of a plain number as the decimal point OCR took it for, and sends it to review', () => {
    const r = repaired(ocrRow('Monocytes', '7:9', '%'));
    expect(r.value).toMatchObject({ value: '7.9', kind: 'numeric' });
    expect(r.problems.map((p) => p.code)).toEqual(['decimal_suspect']);
    expect(repaired(ocrRow('Albumin/Globulin Ratio', '1:2')).value.value).toBe('1.2');
  });

  it('leaves titers, text layers and unknown tests as they were read', () => {
    expect(repaired(ocrRow('ANA Titer', '1:160')).value).toMatchObject({ value: '1:160', kind: 'ratio' });
    const text = { ...ocrRow('Monocytes', '7:9', '%'), source: 'text' as const };
    expect(repaired(text).value.value).toBe('7:9');
    const unknown = repaired(ocrRow('Zz Unknown Assay', '3:4'));
    expect(unknown.value.value).toBe('3:4');
    expect(unknown.problems).toEqual([]);
  });
});

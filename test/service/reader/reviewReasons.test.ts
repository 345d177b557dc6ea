import { describe, expect, it } from 'vitest';
import { consistencyReasons } from '../../../server/service/reader/consistency';
import { interpret } from '../../../server/service/reader/interpret';
import { matchLoinc } from '../../../server/service/reader/loinc';
import { reviewReport, reviewResult } from '../../../server/service/reader/reviewReasons';
import type { RawResult } from '../../../server/service/reader/tableReader';
import { parseValueCell } from '../../../server/service/reader/values';

function raw(testName: string, cell: string, units?: string, rangeText?: string, extra: Partial<RawResult> = {}): RawResult {
  const value = parseValueCell(cell);
  const r: RawResult = { testName, value, page: 1, column: 'result', problems: [], source: 'text', ...extra };
  if (value.flag) r.flag = value.flag;
  if (units) r.units = units;
  if (rangeText) r.rangeText = rangeText;
  return r;
}

function review(r: RawResult) {
  const interpreted = interpret(r);
  const loinc = matchLoinc(r.testName, { units: r.units, panel: r.panel, qualitativeValue: r.value.kind === 'qualitative', ocr: r.source === 'ocr' });
  return { codes: reviewResult({ raw: r, interpreted, loinc }).map((x) => x.code), result: interpreted.result };
}

describe('interpretation', () => {
  it('takes the flag when there is one, the range otherwise', () => {
    expect(review(raw('Potassium', '5.6 H', 'mmol/L', '3.5-5.2')).result).toMatchObject({
      type: 'numeric', value: '5.6', units: 'mmol/L', min_reference_range: 3.5, max_reference_range: 5.2,
      interpretation: 'abnormal', is_above_max_range: true, is_below_min_range: false,
    });
    expect(review(raw('Potassium', '6.6 HH', 'mmol/L', '3.5-5.2')).result.interpretation).toBe('critical');
    expect(review(raw('Potassium', '4.1', 'mmol/L', '3.5-5.2')).result.interpretation).toBe('normal');
    expect(review(raw('Potassium', '4.1', 'mmol/L')).result.interpretation).toBe('unknown');
    expect(review(raw('Hematocrit', '41.2', '%', '34.0-46.6')).result.type).toBe('percentage');
    expect(review(raw('C-Reactive Protein, Cardiac', '<0.30', 'mg/L', '0.00-3.00')).result).toMatchObject({ type: 'range', interpretation: 'normal', is_above_max_range: false });
    expect(review(raw('HCV Ab', 'Non Reactive', undefined, 'Non Reactive')).result).toMatchObject({ type: 'boolean', interpretation: 'normal' });
    expect(review(raw('Chol/HDL Ratio', '3.8', undefined, '<5.0')).result.type).toBe('ratio');
  });

  it('calls a value in the out-of-range column abnormal even without a letter', () => {
    expect(review(raw('HEMOGLOBIN', '17.1', 'g/dL', '11.7-15.5', { column: 'outRange' })).result.interpretation).toBe('abnormal');
  });
});

describe('doubt rules', () => {
  it('sends a clean, consistent result nowhere', () => {
    expect(review(raw('Potassium', '4.5', 'mmol/L', '3.5-5.2')).codes).toEqual([]);
    expect(review(raw('Glucose', '101 H', 'mg/dL', '65-99', { panel: 'Comp. Metabolic Panel (14)' })).codes).toEqual([]);
    expect(review(raw('Nitrite, Urine', 'Negative', undefined, 'Negative')).codes).toEqual([]);
  });

  it('sends a result whose unit was guessed from look-alike letters to review, with the unit as the analyte spells it', () => {
    const r = raw('Chloride', '99', 'mmol FL', '98-107', { source: 'ocr', valueConfidence: 96, nameConfidence: 96 });
    const loinc = matchLoinc(r.testName, { units: r.units, ocr: true });
    expect(loinc.unitCorrected).toBe('mmol/L');
    expect(reviewResult({ raw: r, interpreted: interpret(r), loinc }).map((x) => x.code)).toEqual(['unexpected_unit']);
  });

  it('sends potassium 4.5 read as 45 to review (implausible, lost decimal, out of range without a flag)', () => {
    const { codes } = review(raw('Potassium', '45', 'mmol/L', '3.5-5.2'));
    expect(codes).toEqual(expect.arrayContaining(['implausible_value', 'decimal_suspect', 'unflagged_out_of_range']));
  });

  it('catches a lost decimal point even where the magnitude is plausible (WBC 6.8 read as 68)', () => {
    expect(review(raw('WBC', '68', 'x10E3/uL', '3.4-10.8')).codes).toEqual(expect.arrayContaining(['decimal_suspect', 'unflagged_out_of_range']));
    // A test outside the table: the range alone gives it away.
    expect(review(raw('Zinc Protoporphyrin', '45', 'ug/dL', '0.5-6.0')).codes).toEqual(expect.arrayContaining(['decimal_suspect', 'loinc_missing']));
  });

  it('takes a whole number just over a range printed with decimals for a high result in a text layer, not under OCR', () => {
    expect(review(raw('Total Bilirubin', '22 H', 'umol/L', '1.7 - 21')).codes).not.toContain('decimal_suspect');
    // OCR may have dropped the point of 2.2.
    expect(review(raw('Total Bilirubin', '22 H', 'umol/L', '1.7 - 21', { source: 'ocr' })).codes).toContain('decimal_suspect');
  });

  it('sends flag H with a value inside the range to review, and the other disagreements', () => {
    expect(review(raw('Potassium', '4.5 H', 'mmol/L', '3.5-5.2')).codes).toContain('flag_inconsistent');
    expect(review(raw('Potassium', '5.9 L', 'mmol/L', '3.5-5.2')).codes).toContain('flag_inconsistent');
    expect(review(raw('Potassium', '4.5 A', 'mmol/L', '3.5-5.2')).codes).toContain('flag_inconsistent');
    expect(review(raw('Potassium', '4.5', 'mmol/L', '3.5-5.2', { column: 'outRange' })).codes).toContain('flag_inconsistent');
    expect(review(raw('Nitrite, Urine', 'Negative A', undefined, 'Negative')).codes).toContain('flag_inconsistent');
    expect(review(raw('HCV Ab', 'Reactive', undefined, 'Non Reactive')).codes).toContain('unflagged_out_of_range');
  });

  it('doubts unparseable values, missing and ambiguous LOINC matches, and foreign or missing units', () => {
    expect(review(raw('Potassium', 'lrg', 'mmol/L', '3.5-5.2')).codes).toContain('unparseable_value');
    expect(review(raw('Immature Granulocytes', '0', '%', 'Not Estab.')).codes).toContain('loinc_missing');
    expect(review(raw('Neutrophils', '58')).codes).toContain('loinc_ambiguous');
    expect(review(raw('Potasslum', '4.5', 'mmol/L', '3.5-5.2')).codes).toContain('loinc_low_confidence');
    expect(review(raw('Potassium', '4.5', 'mg/dL', '3.5-5.2')).codes).toContain('unexpected_unit');
    expect(review(raw('Potassium', '4.5', undefined, '3.5-5.2')).codes).toContain('missing_unit');
    expect(review(raw('RDW', '11:7', '%', '11.7-15.4')).codes).toContain('unparseable_value');
  });

  it('doubts a misread range', () => {
    expect(review(raw('Potassium', '4.5', 'mmol/L', '3.5-52')).codes).toContain('range_suspect');
    expect(review(raw('Potassium', '4.5', 'mmol/L', '5.2-3.5')).codes).toContain('range_suspect');
  });

  it('doubts OCR output read with low confidence', () => {
    expect(review(raw('Potassium', '4.5', 'mmol/L', '3.5-5.2', { source: 'ocr', valueConfidence: 60, nameConfidence: 95 })).codes).toEqual(['low_ocr_confidence']);
    expect(review(raw('Potassium', '4.5', 'mmol/L', '3.5-5.2', { source: 'ocr', valueConfidence: 96, nameConfidence: 96 })).codes).toEqual([]);
  });
});

describe('consistency between results', () => {
  const check = (rows: RawResult[]) =>
    consistencyReasons(rows.map((r) => ({ raw: r, loinc: matchLoinc(r.testName, { units: r.units, panel: r.panel }) }))).map((x) => x.map((y) => y.code));

  it('accepts a report whose calculated values agree within rounding', () => {
    expect(check([
      raw('Protein, Total', '7.1', 'g/dL'), raw('Albumin', '4.4', 'g/dL'), raw('Globulin, Total', '2.7', 'g/dL'), raw('A/G Ratio', '1.6'),
      raw('WBC', '6.8', 'x10E3/uL'), raw('Neutrophils', '58', '%'), raw('Lymphs', '31', '%'), raw('Monocytes', '8', '%'), raw('Eos', '2', '%'), raw('Basos', '1', '%'),
      raw('Neutrophils (Absolute)', '3.9', 'x10E3/uL'),
    ]).flat()).toEqual([]);
  });

  it('sends every member of a group that does not add up to review (a misread digit anywhere)', () => {
    const codes = check([raw('Protein, Total', '7.1', 'g/dL'), raw('Albumin', '4.4', 'g/dL'), raw('Globulin, Total', '7.2', 'g/dL')]);
    expect(codes).toEqual([['inconsistent_results'], ['inconsistent_results'], ['inconsistent_results']]);
    const diff = check([raw('Neutrophils', '58', '%'), raw('Lymphs', '31', '%'), raw('Monocytes', '80', '%'), raw('Eos', '2', '%'), raw('Basos', '1', '%')]);
    expect(diff.every((c) => c.includes('inconsistent_results'))).toBe(true);
  });

  it('checks an SI report in its own units: hemoglobin and MCHC in g/L, hematocrit in L/L', () => {
    const cbc = (mchc: string) => [
      raw('Haemoglobin', '128', 'g/L'), raw('Haematocrit', '0.41', 'L/L'), raw('Red Cell Count', '4.72', 'x10^12/L'),
      raw('MCV', '86', 'fL'), raw('MCH', '27.1', 'pg'), raw('MCHC', mchc, 'g/L'),
    ];
    expect(check(cbc('315')).flat()).toEqual([]);
    expect(check(cbc('31.5')).flat()).toContain('inconsistent_results');
    // HbA1c in mmol/mol is no input of the eAG formula, which is written for %.
    expect(check([raw('HbA1c (IFCC)', '48', 'mmol/mol'), raw('Estimated Average Glucose', '140', 'mg/dL')]).flat()).toEqual([]);
  });

  it('scales absolute counts printed in cells/uL', () => {
    expect(check([raw('WHITE BLOOD CELL COUNT', '6.8', 'Thousand/uL'), raw('NEUTROPHILS', '58.1', '%'), raw('ABSOLUTE NEUTROPHILS', '3951', 'cells/uL')]).flat()).toEqual([]);
    expect(check([raw('WHITE BLOOD CELL COUNT', '6.8', 'Thousand/uL'), raw('NEUTROPHILS', '58.1', '%'), raw('ABSOLUTE NEUTROPHILS', '395', 'cells/uL')]).flat()).toContain('inconsistent_results');
  });
});

describe('report-level review', () => {
  it('asks for review when nothing was found, metadata is missing, or rows were unreadable', () => {
    expect(reviewReport({ resultCount: 0, missingMetadata: ['dob'], unreadRows: 2, meanOcrConfidence: 50 }).map((r) => r.code)).toEqual([
      'no_results', 'metadata_incomplete', 'unread_rows', 'ocr_used_low_quality',
    ]);
    expect(reviewReport({ resultCount: 12, missingMetadata: [], unreadRows: 0, meanOcrConfidence: null })).toEqual([]);
  });

  it('holds a report for a missing identity only, and says in words what to check', () => {
    const facts = { resultCount: 12, unreadRows: 0, meanOcrConfidence: null };
    // The lab's name (required on the wire) and the first name are no reason to hold a report.
    expect(reviewReport({ ...facts, missingMetadata: ['lab_name'] })).toEqual([]);
    expect(reviewReport({ ...facts, missingMetadata: ['patient_first_name'] })).toEqual([]);
    expect(reviewReport({ ...facts, missingMetadata: ['dob'] })).toEqual([
      { code: 'metadata_incomplete', message: 'The date of birth was not found on the report: check that the report is this patient\'s and enter it.' },
    ]);
    const both = reviewReport({ ...facts, missingMetadata: ['patient_first_name', 'patient_last_name', 'dob', 'lab_name'] });
    expect(both.map((r) => r.message)).toEqual(['The patient’s last name and date of birth were not found on the report: check that the report is this patient\'s and enter them.']);
  });
});

describe('results read from a letter', () => {
  const codes = (r: RawResult) => review(r).codes;
  it('do not need a flag word for a value outside its range when read from the text layer, but do when read by OCR', () => {
    expect(codes(raw('Carbon Dioxide, Total', '20', 'mmol/L', '22-29', { column: 'narrative' }))).not.toContain('unflagged_out_of_range');
    expect(codes(raw('Carbon Dioxide, Total', '20', 'mmol/L', '22-29', { column: 'narrative', source: 'ocr', valueConfidence: 95 }))).toContain('unflagged_out_of_range');
    expect(codes(raw('Carbon Dioxide, Total', '20', 'mmol/L', '22-29'))).toContain('unflagged_out_of_range');
  });
});

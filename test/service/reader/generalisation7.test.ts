import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseLabReport } from '../../../server/service/reader';
import { matchLoinc } from '../../../server/service/reader/loinc';
import { consistencyReasons } from '../../../server/service/reader/consistency';
import { extractMetadata } from '../../../server/service/reader/metadata';
import { readNarrative } from '../../../server/service/reader/narrative';
import { rangeWordRepaired } from '../../../server/service/reader/ocrRangeWord';
import type { RawResult } from '../../../server/service/reader/tableReader';
import { parseValueCell } from '../../../server/service/reader/values';
import { page } from './helpers';

/** Mechanisms of the seventh round of issue-13 reader work: each general, none a layout's own rule. */

const best = (name: string, units?: string) => matchLoinc(name, { units }).matches[0];

describe('a test printed under two of its names', () => {
  it('is that test, surely, when both names are its own ("Sodium (Na+)", "PCV / Haematocrit")', () => {
    for (const [name, units, code] of [
      ['Sodium (Na+)', 'mEq/L', '2951-2'],
      ['Blood Urea Nitrogen (BUN)', 'mg/dL', '3094-0'],
      ['Free T4 (FT4)', 'ng/dL', '3024-7'],
      ['PCV / Haematocrit', '%', '4544-3'],
      ['LDL Cholesterol, Calculated', 'mg/dL', '13457-7'],
      ['HIV-1/2 Antigen/Antibody, 4th Generation', undefined, '56888-1'],
    ] as const) {
      expect(best(name, units)?.loinc_code, name).toBe(code);
      expect(best(name, units)!.confidence_score, name).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('stays in doubt when the two names are two tests, or a word changes what is measured', () => {
    // C-reactive protein and hs-CRP are different tests: a person picks.
    expect(best('C-Reactive Protein (hs-CRP)', 'mg/L')!.confidence_score).toBeLessThan(0.9);
    // "Direct" is no filler: never total bilirubin with certainty.
    const direct = best('Bilirubin (Direct)', 'mg/dL');
    expect(direct?.loinc_code === '1975-2' && direct.confidence_score >= 0.9).toBe(false);
  });

  it('reads the units Indian reports print for counts as the same units', () => {
    expect(matchLoinc('Total Leucocyte Count (TLC)', { units: 'thou/mm3' }).unitSpec?.units[0]).toBe('x10E3/uL');
    expect(matchLoinc('RBC Count', { units: 'mill/mm3' }).unitSpec?.units[0]).toBe('x10E6/uL');
    expect(matchLoinc('Absolute Monocyte Count', { units: '/cumm' })).toMatchObject({ ambiguous: false, unitSpec: { units: expect.arrayContaining(['/cumm']) } });
    expect(matchLoinc('Platelet Count', { units: 'lakhs/cumm' }).unitSpec?.plausible).toEqual([0.01, 30]);
  });
});

async function reportPdf(lines: [x: number, y: number, text: string, size?: number][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const pdfPage = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [x, y, text, size] of lines) pdfPage.drawText(text, { x, y: 792 - y, size: size ?? 9, font });
  return doc.save();
}

describe('a hospital report with specimen bands, comment lines and an interpretation table', () => {
  it('names each panel from its band, reads urine dipstick words as urine tests, and takes no comment or category for a result', async () => {
    const bytes = await reportPdf([
      [36, 40, 'RIVERBEND MEDICAL CENTER LABORATORY'],
      [36, 60, 'Patient: DOE, JANE'],
      [300, 60, 'DOB: 01/02/1980'],
      [36, 72, 'Coll: 03/04/2024 08:15'],
      [300, 72, 'Reported: 03/04/2024 14:00'],
      [36, 100, 'Test'],
      [210, 100, 'Result'],
      [300, 100, 'Reference'],
      [420, 100, 'Units'],
      [40, 120, 'TSH WITH REFLEX FREE T4'],
      [480, 120, 'Specimen: Serum', 7],
      [46, 134, 'TSH'],
      [210, 134, '2.10'],
      [300, 134, '0.40-4.50'],
      [420, 134, 'uIU/mL'],
      [60, 143, 'Reflex free T4 performed when TSH is <0.40 or >4.50 uIU/mL.', 6.8],
      [40, 165, 'URINALYSIS WITH MICROSCOPIC REFLEX'],
      [480, 165, 'Specimen: Urine, clean catch', 7],
      [46, 179, 'Protein'],
      [210, 179, 'Negative'],
      [300, 179, 'Negative'],
      [46, 191, 'Glucose'],
      [210, 191, 'Negative'],
      [300, 191, 'Negative'],
      [40, 215, 'HEMOGLOBIN A1C'],
      [46, 229, 'Hemoglobin A1c'],
      [210, 229, '6.1'],
      [300, 229, '4.0-5.6'],
      [420, 229, '%'],
      [46, 245, 'Non-diabetic'],
      [210, 245, '<5.7'],
      [46, 257, 'Pre-diabetic (at risk)'],
      [210, 257, '5.7 - 6.4'],
      [46, 269, 'Therapeutic goal for diabetics'],
      [210, 269, '<7.0'],
    ]);
    const out = await parseLabReport(bytes);
    if (!out.ok) throw new Error(out.failureReason);
    expect(out.data.results.map((r) => [r.test_name, r.value, r.source_panel_name, r.loinc_matches?.[0]?.loinc_code])).toEqual([
      ['TSH', '2.10', 'TSH WITH REFLEX FREE T4', '3016-3'],
      ['Protein', 'Negative', 'URINALYSIS WITH MICROSCOPIC REFLEX', '5804-0'],
      ['Glucose', 'Negative', 'URINALYSIS WITH MICROSCOPIC REFLEX', '5792-7'],
      ['Hemoglobin A1c', '6.1', 'HEMOGLOBIN A1C', '4548-4'],
    ]);
    expect(out.reviewReasons.results.slice(0, 3)).toEqual([[], [], []]);
    expect(out.reviewReasons.report).toEqual([]);
  });
});

describe('a short leader of single dots', () => {
  it('links the name to its value instead of ending a sentence ("Rate . . 52 *")', () => {
    const rows = page([
      [100, [[56, 'CMP:']]],
      [111, [[68, 'Creatinine . . . . . . . . 0.89'], [240, '{0.60-1.20} mg/dL']]],
      [122, [[68, 'Estimated Glomerular Filtration Rate'], [256, '.'], [266, '.'], [277, '52'], [292, '*'], [308, '{>=60} mL/min/1.73m2']]],
    ]);
    expect(readNarrative(rows).map((r) => [r.testName, r.value.value, r.units, r.rangeText, r.flag])).toEqual([
      ['Creatinine', '0.89', 'mg/dL', '0.60-1.20', undefined],
      ['Estimated Glomerular Filtration Rate', '52', 'mL/min/1.73m2', '>=60', 'Abnormal'],
    ]);
  });
});

function ocrRow(testName: string, cell: string, units: string, rangeText: string, source: 'ocr' | 'text' = 'ocr'): RawResult {
  return { testName, value: parseValueCell(cell), units, rangeText, page: 1, column: 'result', problems: [], source };
}

function repaired(r: RawResult) {
  rangeWordRepaired(r, matchLoinc(r.testName, { units: r.units, ocr: r.source === 'ocr' }));
  return r;
}

describe('the word "to" of a range as OCR misreads it', () => {
  it('is put back when one reading alone fits the analyte, and the result goes to review saying so', () => {
    for (const [name, units, printed, range] of [
      ['Glucose Fasting', 'mmol/L', '3.6t06.0', '3.6-6.0'],
      ['Total CO2', 'mmol/L', '221029', '22-29'],
      ['Calcium', 'mmol/L', '2.1510 2.60', '2.15-2.60'],
    ] as const) {
      const r = repaired(ocrRow(name, '1', units, printed));
      expect(r.rangeText, printed).toBe(range);
      expect(r.problems.map((p) => p.code), printed).toEqual(['range_suspect']);
      expect(r.problems[0]!.message).toContain(printed);
    }
  });

  it('is left alone when no reading or several fit, on a text layer, and for a range already read', () => {
    // "2.5 to 8.0" with its point lost too: 25 > 8.0, no reading.
    expect(repaired(ocrRow('Urea', '3.6', 'mmol/L', '2518.0')).rangeText).toBe('2518.0');
    expect(repaired(ocrRow('Total CO2', '30', 'mmol/L', '221029', 'text')).rangeText).toBe('221029');
    const read = repaired(ocrRow('Sodium', '140', 'mmol/L', '135 to 145'));
    expect([read.rangeText, read.problems]).toEqual(['135 to 145', []]);
  });
});

describe('a unit run into its value by OCR', () => {
  it('comes apart from the number ("0.41L/L"); flags glued to values stay flags', () => {
    expect(parseValueCell('0.41L/L')).toMatchObject({ value: '0.41', kind: 'numeric', trailing: 'L/L' });
    expect(parseValueCell('13.5g/dL')).toMatchObject({ value: '13.5', trailing: 'g/dL' });
    expect(parseValueCell('6.8H')).toMatchObject({ value: '6.8', flag: 'H' });
    expect(parseValueCell('1.73m2').trailing).toBeUndefined();
  });
});

describe('metadata as OCR reads it', () => {
  it('finds the sex with the space after "Sex" lost, or with the middle dot read as a dash', () => {
    expect(extractMetadata(page([[40, [[36, 'MRN 5535590'], [120, 'DOB 4/3/1966 (57y)'], [230, 'SexM'], [270, 'Enc # 42365298']]]])).metadata.gender).toBe('male');
    expect(extractMetadata(page([[40, [[36, 'Rosa Fonseca']]], [54, [[36, 'Born Jul 23, 1944'], [130, '-'], [140, 'Female'], [180, '-'], [190, 'Patient ID 1671799']]]])).metadata.gender).toBe('female');
  });

  it("cuts a phone off the lab's address whatever OCR made of the dot before it", () => {
    const { metadata } = extractMetadata(page([
      [30, [[36, 'Gulf Crescent Hospital Laboratory']]],
      [42, [[36, 'Corniche Road West, P.O. Box 7392, Abu Dhabi, United Arab Emirates - Tel +971 2 555 0123']]],
      [60, [[36, 'Patient Name : AHMED ONEILL'], [320, 'DOB : 13/09/1973']]],
    ]));
    expect(metadata.lab_address).toBe('Corniche Road West, P.O. Box 7392, Abu Dhabi, United Arab Emirates');
  });
});

describe("a consumer kit's results page", () => {
  it('reads value and unit from one cell, the status words as the flag and the range printed under the row', async () => {
    const bytes = await reportPdf([
      [40, 40, 'Kestrel Home Health Testing'],
      [40, 70, 'We tested your sample for 3 biomarkers. 1 of them is outside the healthy'],
      [382, 64, 'Name'],
      [382, 76, 'Jane Roe'],
      [382, 92, 'Date of birth'],
      [40, 96, 'range; see the details below.'],
      [382, 104, '01/02/1980'],
      [382, 120, 'Received at lab'],
      [382, 132, 'Mar 6, 2024 9:15 AM'],
      [382, 148, 'Results released'],
      [382, 160, 'Mar 8, 2024'],
      [48, 200, 'TEST'],
      [212, 200, 'YOUR RESULT'],
      [306, 200, 'STATUS'],
      [396, 200, 'WHERE YOU FALL'],
      [48, 216, 'Total Cholesterol'],
      [212, 216, '175 mg/dL'],
      [306, 216, 'In range'],
      [48, 227, 'Healthy range: <200 mg/dL', 7],
      [48, 243, 'HDL Cholesterol'],
      [212, 243, '38 mg/dL'],
      [306, 243, 'Below range'],
      [48, 254, 'Healthy range: >40 mg/dL', 7],
      [48, 270, 'Hemoglobin A1c'],
      [212, 270, '5.9 %'],
      [306, 270, 'Above range'],
      [48, 281, 'Healthy range: 4.0-5.6 %', 7],
      [40, 320, 'Tested by Northbrook Clinical Laboratory, 1130 Discovery Drive, Madison, WI 53719'],
    ]);
    const out = await parseLabReport(bytes);
    if (!out.ok) throw new Error(out.failureReason);
    expect(out.data.results.map((r) => [r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.interpretation])).toEqual([
      ['Total Cholesterol', '175', 'mg/dL', undefined, 200, 'normal'],
      ['HDL Cholesterol', '38', 'mg/dL', 40, undefined, 'abnormal'],
      ['Hemoglobin A1c', '5.9', '%', 4, 5.6, 'abnormal'],
    ]);
    expect(out.reviewReasons.results).toEqual([[], [], []]);
    expect(out.data.metadata).toMatchObject({
      dob: '01/02/1980',
      date_received: 'Mar 6, 2024 9:15 AM',
      date_reported: 'Mar 8, 2024',
      lab_name: 'Northbrook Clinical Laboratory',
    });
  });
});

describe('rows that are not results', () => {
  it("a histogram's captions under a blood count are passed over, not a result to review", async () => {
    const bytes = await reportPdf([
      [12, 30, 'PATIENT NAME: JANE ROE'],
      [12, 42, 'DOB: 01/02/1980'],
      [12, 70, 'TEST'],
      [82, 70, 'RESULT'],
      [118, 70, 'UNITS'],
      [168, 70, 'RANGE'],
      [12, 82, 'WBC'],
      [82, 82, '10.9'],
      [118, 82, 'K/uL'],
      [168, 82, '4.5-11.0'],
      [12, 94, 'RBC'],
      [82, 94, '4.50'],
      [118, 94, 'M/uL'],
      [168, 94, '4.20-5.40'],
      [34, 140, 'WBC'],
      [106, 140, 'RBC'],
      [178, 140, 'PLT'],
    ]);
    const out = await parseLabReport(bytes);
    if (!out.ok) throw new Error(out.failureReason);
    expect(out.data.results.map((r) => [r.test_name, r.value])).toEqual([
      ['WBC', '10.9'],
      ['RBC', '4.50'],
    ]);
    expect(out.reviewReasons.report).toEqual([]);
  });
});

describe('metadata of an Indian report', () => {
  it('reads "Age / Gender", an address starting at its floor, and takes no "Lab No." for the lab', () => {
    const { metadata } = extractMetadata(page([
      [34, [[36, 'Lotus Pathlabs']]],
      [60, [[36, '2nd Floor, Anand Towers, 45 MG Road, Bengaluru, Karnataka 560001'], [330, 'Ph: +91 80 5550 1870']]],
      [85, [[42, 'Patient Name'], [108, ': Ms. FATIMA KIM'], [330, 'Lab No.'], [388, ': 2432764706']]],
      [97, [[42, 'Age / Gender'], [108, ': 72 Y / Female'], [330, 'Reported'], [388, ': 26/11/2024 11:41 AM']]],
      [108, [[42, 'Date of Birth'], [108, ': 12/01/1952']]],
    ]));
    expect(metadata).toMatchObject({
      lab_name: 'Lotus Pathlabs',
      lab_address: '2nd Floor, Anand Towers, 45 MG Road, Bengaluru, Karnataka 560001',
      gender: 'female',
      specimen_number: '2432764706',
    });
  });
});

describe("the differential's cross-check", () => {
  const row = (testName: string, value: string, units: string) => {
    const raw: RawResult = { testName, value: parseValueCell(value), units, page: 1, column: 'result', problems: [], source: 'text' };
    return { raw, loinc: matchLoinc(testName, { units }) };
  };
  it('takes absolute counts per microlitre in any spelling, rounded to whole hundreds, and still catches one that does not add up', () => {
    const wbc = row('Total Leucocyte Count (TLC)', '6.90', 'thou/mm3');
    const ok = consistencyReasons([wbc, row('Monocytes', '8', '%'), row('Absolute Monocyte Count', '600', '/cumm')]);
    expect(ok).toEqual([[], [], []]);
    const off = consistencyReasons([wbc, row('Monocytes', '8', '%'), row('Absolute Monocyte Count', '6000', '/cumm')]);
    expect(off[2]!.map((r) => r.code)).toEqual(['inconsistent_results']);
  });
});

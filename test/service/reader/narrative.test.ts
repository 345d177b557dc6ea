import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { closeParser, parseLabReport } from '../../../server/service/reader';
import { interpret } from '../../../server/service/reader/interpret';
import { matchLoinc } from '../../../server/service/reader/loinc';
import { readNarrative } from '../../../server/service/reader/narrative';
import { reviewResult } from '../../../server/service/reader/reviewReasons';
import { readTables, type RawResult } from '../../../server/service/reader/tableReader';
import { page, table, type Line } from './helpers';

const brief = (r: RawResult) => [r.testName, r.value.value, r.flag ?? '', r.units ?? '', r.rangeText ?? ''];

/** Lines of prose at a letter's pitch (10.5 pt type, 14 pt apart); an empty string is a paragraph break. */
function prose(lines: string[], opts: { x?: number; start?: number } = {}): Line[] {
  const out: Line[] = [];
  let y = opts.start ?? 100;
  for (const text of lines) {
    if (text) out.push([y, [[opts.x ?? 72, text]]]);
    y += text ? 14 : 8;
  }
  return out;
}

const read = (lines: string[]) => readNarrative(page(prose(lines), 1, { size: 10.5 }));

describe('a letter: results in sentences, wrapped over lines', () => {
  const results = read([
    'Dear Ms. Doe,',
    '',
    'Thank you for choosing our laboratory. The blood sample you gave on March 4, 2024 has been tested.',
    '',
    'Comprehensive Metabolic Panel. Your fasting glucose was 95 mg/dL (reference 70–99), which is normal. The',
    'Potassium result came back at 5.6 mmol/L, against a reference range of 3.5–5.2; this is higher than the',
    'reference range. Creatinine measured 0.41 mg/dL (normal: 0.57–1.00), which we consider low. For Sodium we',
    'found 139 mmol/L; the expected range is 134–144.',
    '',
    'Lipid Panel. Your LDL cholesterol level was 131 mg/dL (ref <100), above the normal range. Your HDL was',
    'at least 60 mg/dL.',
  ]);

  it('reads every value with its unit, range and flag in words, joining the wrapped lines', () => {
    expect(results.map(brief)).toEqual([
      ['fasting glucose', '95', 'Normal', 'mg/dL', '70-99'],
      ['Potassium', '5.6', 'High', 'mmol/L', '3.5-5.2'],
      ['Creatinine', '0.41', 'Low', 'mg/dL', '0.57-1.00'],
      ['Sodium', '139', '', 'mmol/L', '134-144'],
      ['LDL cholesterol', '131', 'High', 'mg/dL', '<100'],
      ['HDL', '>=60', '', 'mg/dL', ''],
    ]);
    expect(results.every((r) => r.column === 'narrative' && r.problems.length === 0)).toBe(true);
  });

  it('takes the panel from the title sentence before the results', () => {
    expect(results.map((r) => r.panel)).toEqual([
      'Comprehensive Metabolic Panel', 'Comprehensive Metabolic Panel', 'Comprehensive Metabolic Panel', 'Comprehensive Metabolic Panel', 'Lipid Panel', 'Lipid Panel',
    ]);
  });

  it('names a known analyte for each (fasting glucose is glucose in serum, under the panel)', () => {
    const codes = results.map((r) => matchLoinc(r.testName, { units: r.units, panel: r.panel }).matches[0]?.loinc_code);
    expect(codes).toEqual(['2345-7', '2823-3', '2160-0', '2951-2', '13457-7', '2085-9']);
  });

  it('a flag said in words counts as the flag: no "unflagged out of range" for "higher than the reference range"', () => {
    const reasons = results.map((raw) => {
      const loinc = matchLoinc(raw.testName, { units: raw.units, panel: raw.panel });
      return reviewResult({ raw, interpreted: interpret(raw), loinc }).map((r) => r.code);
    });
    expect(reasons).toEqual([[], [], [], [], [], []]);
    expect(results.map((r) => interpret(r).result.interpretation)).toEqual(['normal', 'abnormal', 'abnormal', 'normal', 'abnormal', 'unknown']);
  });
});

describe('bulleted lists', () => {
  it("reads ':' '—' and '-' separated bullets with their ranges and flags", () => {
    const rows = page([
      [64, [[40, 'Patient: Doe, Jane'], [320, 'DOB: 03/14/1979']]],
      [79, [[40, 'Collected: 03/01/2024 8:05 AM'], [320, 'Resulted: 03/02/2024 1:10 PM']]],
      [100, [[40, 'Diabetes']]],
      ...table(116, [
        [[52, '•'], [64, 'Hemoglobin A1c: 5.4 % (normal range 4.0–5.6)']],
        [[52, '-'], [64, 'LDL Cholesterol — 131 mg/dL — High (ref <100)']],
        [[52, '•'], [64, 'Glucose: 95 mg/dL'], [200, 'Normal range: 70-99']],
        [[52, '•'], [64, 'Triglycerides - 210 mg/dL (H) (<150)']],
        [[52, '•'], [64, 'TSH: 2.10 uIU/mL (0.45 to 4.50)']],
        [[52, '•'], [64, 'Hepatitis C antibody: Negative (expected: Negative)']],
        [[52, '•'], [64, 'Potassium: 6.8 mmol/L, critical high (normal range 3.5-5.2)']],
      ], 14),
    ], 1, { size: 9.5 });
    expect(readNarrative(rows).map(brief)).toEqual([
      ['Hemoglobin A1c', '5.4', '', '%', '4.0-5.6'],
      ['LDL Cholesterol', '131', 'High', 'mg/dL', '<100'],
      ['Glucose', '95', '', 'mg/dL', '70-99'],
      ['Triglycerides', '210', 'High', 'mg/dL', '<150'],
      ['TSH', '2.10', '', 'uIU/mL', '0.45-4.50'],
      ['Hepatitis C antibody', 'Negative', '', '', 'Negative'],
      ['Potassium', '6.8', 'Critical High', 'mmol/L', '3.5-5.2'],
    ]);
  });

  it('a bullet wrapped over two lines is one item', () => {
    const rows = page([
      [100, [[52, '•'], [64, 'Vitamin D, 25-Hydroxy: 18 ng/mL, which is below the']]],
      [114, [[64, 'normal range (30-100 ng/mL)']]],
      [128, [[52, '•'], [64, 'Ferritin: 45 ng/mL']]],
    ], 1, { size: 9.5 });
    expect(readNarrative(rows).map(brief)).toEqual([
      ['Vitamin D, 25-Hydroxy', '18', 'Low', 'ng/mL', '30-100'],
      ['Ferritin', '45', '', 'ng/mL', ''],
    ]);
  });
});

describe('ranges, comparators and qualitative results in words', () => {
  it.each([
    ['Your glucose was 95 mg/dL (70 to 99).', ['glucose', '95', '', 'mg/dL', '70-99']],
    ['Your glucose was 95 mg/dL; normal: 70-99.', ['glucose', '95', '', 'mg/dL', '70-99']],
    ['Your glucose was 95 mg/dL, and the normal range is between 70 and 99.', ['glucose', '95', '', 'mg/dL', '70-99']],
    ['Your A1c was 5.9 %, and the target is below 5.7.', ['A1c', '5.9', '', '%', '<5.7']],
    ['Your HDL was 38 mg/dL (reference: greater than 39), which is low.', ['HDL', '38', 'Low', 'mg/dL', '>39']],
    ['Your CRP was less than 0.5 mg/L (reference <5.0).', ['CRP', '<0.5', '', 'mg/L', '<5.0']],
    ['Your CRP was below 0.5 mg/L.', ['CRP', '<0.5', '', 'mg/L', '']],
    ['Your HIV screen was non-reactive.', ['HIV screen', 'non-reactive', '', '', '']],
    ['Your hepatitis C antibody test was negative (expected: negative).', ['hepatitis C antibody', 'negative', '', '', 'negative']],
    ['Your RPR titer was 1:8, which is abnormal.', ['RPR titer', '1:8', 'Abnormal', '', '']],
    ['Your hemoglobin was critically low at 6.1 g/dL (normal range 12.0-15.5).', ['hemoglobin', '6.1', 'Critical Low', 'g/dL', '12.0-15.5']],
    ['Your TSH was 6.2 mIU/L, above the normal range of 0.4-4.0.', ['TSH', '6.2', 'High', 'mIU/L', '0.4-4.0']],
  ] as const)('%s', (sentence, expected) => {
    expect(read([sentence]).map(brief)).toEqual([expected]);
  });

  it('the glucose of a urine test strip is read as a word', () => {
    expect(read(['Urinalysis. Your urine glucose was negative, and ketones were trace.']).map(brief)).toEqual([
      ['urine glucose', 'negative', '', '', ''],
      ['ketones', 'trace', '', '', ''],
    ]);
    expect(read(['• Glucose: Trace (Negative) Abnormal']).map(brief)).toEqual([['Glucose', 'Trace', 'Abnormal', '', 'Negative']]);
    expect(read(['Your glucose was normal.'])).toEqual([]);
  });
});

describe('what is not a result', () => {
  it.each([
    'Date of Birth: 03/14/1979',
    'Patient: Jane Doe   DOB: 03/14/1979   Age: 45',
    'Specimen ID: 123-456-7890-0   NPI: 1234567890   CLIA: 05D1187243',
    'Your doctor saw a 45-year-old patient 2 times this year.',
    'Page 1 of 2',
    'If you have questions, please call us at 800-555-0100 or (503) 555-0142.',
    'Willow Creek Medical Laboratory · 1450 Oak Street, Suite 210 · San Mateo, CA 94401',
    'Your blood was drawn at 08:30 on 03/01/2024, and your potassium was tested on 3/2/2024.',
    'A hemoglobin A1c of 6.5% or greater indicates diabetes.',
    'An LDL cholesterol of 130 mg/dL or above is considered high.',
    'The glucose reference range for fasting specimens is 70-99 mg/dL.',
    'The pt is 45 years old and took 2 tablets.',
    'Your iron studies are enclosed; 3 results are pending.',
  ])('%s', (sentence) => {
    expect(read([sentence])).toEqual([]);
  });

  it('a value the sentence does not make clear is still read, for a person to check', () => {
    const [r] = read(['Your glucose was 95 mg/dL, up from 88 mg/dL last year.']);
    expect(brief(r!)).toEqual(['glucose', '95', '', 'mg/dL', '']);
    expect(r!.problems.map((p) => p.code)).toEqual(['unparseable_value']);
    expect(r!.problems[0]!.message).toContain('88');
  });

  it('flag words that disagree leave no flag and a problem', () => {
    const [r] = read(['Your potassium was 5.9 mmol/L, which is high but within the normal range.']);
    expect(r!.flag).toBeUndefined();
    expect(r!.problems.map((p) => p.code)).toEqual(['flag_inconsistent']);
  });

  it('two numbers after a name with no link between them give nothing', () => {
    expect(read(['Glucose 95 110 mg/dL'])).toEqual([]);
  });
});

describe("a clinical note's leader lines", () => {
  const rows = page(
    [
      [100, [[72, 'Assessment: day 3 of admission, BP 132/84 mmHg, HR 88, T 37.8 C, SpO2 96% on RA, weight 82 kg.']]],
      [114, [[72, 'Plan: potassium chloride 20 mEq PO BID; magnesium 2 g IV once; metoprolol 25 mg PO BID.']]],
      [136, [[72, 'Labs drawn 03/12/2024 06:10:']]],
      [150, [[72, 'Sodium ................ 131 L mmol/L (135-145)']]],
      [164, [[72, 'Potassium'], [150, '. . . . . . . .'], [230, '5.9 (H!) mmol/L [3.5-5.1]']]],
      [178, [[72, 'Creatinine ____________ 1.42* mg/dL {0.57-1.00}']]],
      [192, [[72, 'Hemoglobin ------------ 9.8 g/dL ref: 12.0-15.5 L']]],
      [206, [[72, 'Glucose …… 248 mg/dL critical (70-99)']]],
    ],
    1,
    { size: 10.5 },
  );
  const results = readNarrative(rows);

  it('reads each line: dots, spaced dots, underscores, hyphens and ellipses lead from the name to the value', () => {
    expect(results.map(brief)).toEqual([
      ['Sodium', '131', 'Low', 'mmol/L', '135-145'],
      ['Potassium', '5.9', 'High', 'mmol/L', '3.5-5.1'],
      ['Creatinine', '1.42', 'Abnormal', 'mg/dL', '0.57-1.00'],
      ['Hemoglobin', '9.8', 'Low', 'g/dL', '12.0-15.5'],
      ['Glucose', '248', 'Critical', 'mg/dL', '70-99'],
    ]);
    expect(results.every((r) => r.problems.length === 0)).toBe(true);
  });

  it('takes no vital sign, dose or date in the note around them for a result', () => {
    expect(results.map((r) => r.testName)).not.toContain('magnesium');
    expect(results.map((r) => r.testName)).not.toContain('potassium');
    expect(results.map((r) => r.testName.toLowerCase())).not.toContain('chloride');
  });
});

describe('a heading line over leader lines', () => {
  it('names the panel of the lines under it, which tells serum glucose from urine glucose', () => {
    const results = readNarrative(page([[100, [[72, 'Comp. Metabolic Panel (14):']]], [114, [[72, 'Glucose ....... 512 (H!) mg/dL [70-99]']]]], 1, { size: 10.5 }));
    expect(results.map((r) => [r.testName, r.value.value, r.panel])).toEqual([['Glucose', '512', 'Comp. Metabolic Panel (14)']]);
    expect(matchLoinc('Glucose', { units: 'mg/dL' }).ambiguous).toBe(true);
    expect(matchLoinc('Glucose', { units: 'mg/dL', panel: results[0]!.panel! }).analyte?.code).toBe('2345-7');
  });
});

describe("a faxed note's leader lines, as OCR reads them", () => {
  const rows = page(
    [
      [100, [[72, 'Sodium'], [130, '-------'], [190, 'Se'], [205, 'hd'], [225, 'a'], [240, '138'], [270, 'ref:'], [300, '136-145'], [350, 'mmol/L']]],
      [114, [[72, 'Chloride'], [130, '--=-«---~=-—='], [230, '96'], [250, '(L)'], [270, 'ref:'], [300, '98-107'], [350, 'mmol/L']]],
      [128, [[72, 'HIV'], [95, 'Ag/Ab'], [130, '.....,....'], [230, 'Non-reactive']]],
    ],
    1,
    { size: 10.5, confidence: 90 },
  );
  const results = readNarrative(rows);

  it('reads through a leader OCR turned into marks, and past letters it made up of the dots', () => {
    expect(results.map(brief)).toEqual([
      ['Sodium', '138', '', 'mmol/L', '136-145'],
      ['Chloride', '96', 'Low', 'mmol/L', '98-107'],
      ['HIV Ag/Ab', 'Non-reactive', '', '', ''],
    ]);
  });

  it('asks a person to check a value read after made-up letters, and only that one', () => {
    expect(results.map((r) => r.problems.map((p) => p.code))).toEqual([['low_ocr_confidence'], [], []]);
  });
});

describe("an OCR'd letter: lower-case names are not the dots of a leader", () => {
  /** One OCR word per item, as the engine gives them. */
  const words = (y: number, text: string): Line => {
    let x = 72;
    return [y, text.split(' ').map((w) => { const cell: [number, string] = [x, w]; x += w.length * 5.25 + 4; return cell; })];
  };
  it('keeps creatinine, urea, serum iron, saturation and concentration in the name', () => {
    const lines = [
      'Your creatinine was 1.2 mg/dL (0.6-1.2).',
      'Your urea was 5.2 mmol/L (2.5-7.8).',
      'Your serum iron was 80 ug/dL (60-170).',
      'Transferrin saturation ........ 28 % [20-50]',
      'Mean corpuscular hemoglobin concentration ........ 33.1 g/dL [32-36]',
    ];
    const results = readNarrative(page(lines.map((l, i) => words(100 + 20 * i, l)), 1, { size: 10.5, confidence: 90 }));
    expect(results.map((r) => [r.testName, r.value.value])).toEqual([
      ['creatinine', '1.2'],
      ['urea', '5.2'],
      ['serum iron', '80'],
      ['Transferrin saturation', '28'],
      ['Mean corpuscular hemoglobin concentration', '33.1'],
    ]);
  });
});

describe('dotted leaders whose dots OCR read as letters', () => {
  const rows = page(
    [
      [100, [[72, 'Glucose'], [120, '.'], [140, '3'], [150, 'CESS'], [180, 'or'], [195, 'Hs'], [210, 'Fest'], [240, 'veer'], [270, 'ween.'], [300, '68'], [320, '(L)'], [345, 'mg/dL'], [380, '[70-99]']]],
      [114, [[72, 'TIBC'], [100, '.'], [110, '.'], [120, '.'], [130, '+.'], [140, '.'], [300, '455'], [330, 'H'], [345, 'normal'], [380, '250-450'], [420, 'ug/dL']]],
      [128, [[72, 'Chloride'], [120, '---c-r-mmmmviim'], [220, 'meme'], [300, '96'], [320, '(L)'], [345, 'ref:'], [380, '98-107'], [420, 'mmol/L']]],
      [142, [[72, 'POTASSIUM'], [130, '.ussisvsusinrersivas'], [200, 'sevanisvimans'], [260, 'rexsessosnsy'], [290, '..'], [300, '6.8'], [320, '(H!)'], [345, 'mmol/L'], [390, '[3.5-5.2]']]],
      [156, [[72, 'Calcium'], [120, 'coco'], [150, 'ceri'], [180, 'vere'], [300, '9.1'], [345, 'mg/dL'], [390, '[8.7-10.2]']]],
      [170, [[72, 'BUN'], [100, 'on'], [120, 'eetireieiieeeerereee'], [300, '14'], [345, 'mg/dL'], [390, '[6-24]']]],
      [184, [[72, 'Blood Urea Nitrogen'], [150, '.........'], [300, '15'], [345, 'mg/dL'], [390, '[6-24]']]],
    ],
    1,
    { size: 10.5, confidence: 90 },
  );

  it('reads from the name to the value past the letters, and reads no value out of them', () => {
    expect(readNarrative(rows).map(brief)).toEqual([
      ['Glucose', '68', 'Low', 'mg/dL', '70-99'],
      ['TIBC', '455', 'High', 'ug/dL', '250-450'],
      ['Chloride', '96', 'Low', 'mmol/L', '98-107'],
      ['POTASSIUM', '6.8', 'High', 'mmol/L', '3.5-5.2'],
      ['Calcium', '9.1', '', 'mg/dL', '8.7-10.2'],
      ['BUN', '14', '', 'mg/dL', '6-24'],
      ['Blood Urea Nitrogen', '15', '', 'mg/dL', '6-24'],
    ]);
  });

  it('leaves such lines to the leader reader when no table header was found', () => {
    const read = readTables([rows]);
    expect(read.results).toEqual([]);
  });
});

describe('names that end in a word prose also uses as a link', () => {
  const codeOf = (r: RawResult) => matchLoinc(r.testName, { units: r.units, panel: r.panel }).matches[0]?.loinc_code;

  it.each([['RPR Titer: 1:8'], ['Your RPR titer was 1:8.'], ['Component: RPR Titer\nValue: 1:8']])('%j is the RPR titer (31147-2), not the RPR screen', (text) => {
    const results = read(text.split('\n'));
    expect(results.map(brief)).toEqual([[expect.stringMatching(/^RPR titer$/i), '1:8', '', '', '']]);
    expect(codeOf(results[0]!)).toBe('31147-2');
  });

  it('keeps a filler word out of a name when the name means the same without it', () => {
    expect(read(['Your glucose level was 95 mg/dL.']).map((r) => r.testName)).toEqual(['glucose']);
    expect(read(['Your BUN result came back at 12 mg/dL.']).map((r) => r.testName)).toEqual(['BUN']);
  });
});

describe('a table report', () => {
  const rows = page([
    [40, [[36, 'Northwind Clinical Laboratories']]],
    [70, [[36, 'Patient Name: DOE, JANE A'], [330, 'Date of Birth: 03/14/1979']]],
    [150, [[36, 'Test'], [200, 'Result'], [312, 'Flag'], [428, 'Units'], [492, 'Reference Interval']]],
    ...table(170, [
      [[36, 'Glucose'], [200, '101'], [312, 'H'], [428, 'mg/dL'], [492, '70-99']],
      [[36, 'Potassium'], [200, '4.5'], [428, 'mmol/L'], [492, '3.5-5.2']],
    ]),
    [220, [[36, 'Comment: your Glucose was 101 mg/dL, above the reference range; a fasting repeat is advised.']]],
    [234, [[36, 'A hemoglobin A1c of 6.5% or greater is consistent with diabetes.']]],
    [758, [[36, 'Date Issued: 01/16/2024'], [520, 'Page 1 of 1']]],
  ]);

  it('results of the table are not read a second time from the rows around it', () => {
    const tables = readTables([rows]);
    expect(tables.results.map((r) => r.testName)).toEqual(['Glucose', 'Potassium']);
    expect(readNarrative(tables.otherRows, tables.results)).toEqual([]);
  });
});

describe('end to end: a narrative letter as a text PDF', () => {
  afterAll(async () => {
    await closeParser();
  });

  async function letterPdf(): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.TimesRoman);
    const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
    const p = doc.addPage([612, 792]);
    const text = (x: number, y: number, s: string, size = 10.5, f = font) => p.drawText(s, { x, y: 792 - y, size, font: f });
    text(72, 60, 'Willow Creek Medical Laboratory', 15, bold);
    text(72, 74, '1450 Oak Street, Suite 210 · Portland, OR 97205 · Tel. (503) 555-0142', 8.5);
    text(72, 108, 'March 6, 2024');
    let y = 134;
    const para = (lines: string[]) => {
      for (const l of lines) {
        text(72, y, l);
        y += 14;
      }
      y += 8;
    };
    para(['Re: Laboratory results for Jane Doe (date of birth March 14, 1979)']);
    para(['Dear Ms. Doe,']);
    para([
      'Thank you for choosing our laboratory. The blood sample you gave on March 4, 2024 has been tested, and',
      'Ana Rivera, MD has reviewed the results. They are explained below.',
    ]);
    para([
      'Comprehensive Metabolic Panel. Your fasting glucose was 95 mg/dL (reference 70–99), which is normal. The',
      'Potassium result came back at 5.6 mmol/L, against a reference range of 3.5–5.2; this is higher than the',
      'reference range. Creatinine measured 0.85 mg/dL (normal: 0.57–1.00).',
    ]);
    para(['Lipid Panel. Your LDL Cholesterol was 131 mg/dL (ref <100), which is high. For Triglycerides we found', '88 mg/dL; the expected range is 0–149.']);
    para(['Your Hemoglobin A1c was 5.4 % (normal range 4.0–5.6). Your HIV screen was non-reactive.']);
    para(['If you have any questions about these results, please call us at (503) 555-0142.']);
    para(['Sincerely,', 'Ana Rivera, MD']);
    text(72, 756, 'Willow Creek Medical Laboratory · page 1', 7.5);
    return doc.save();
  }

  it('reads the values with units, ranges, interpretation and LOINC codes', async () => {
    const outcome = await parseLabReport(await letterPdf());
    if (!outcome.ok) throw new Error(outcome.failureReason);
    expect(outcome.stats.ocrPages).toBe(0);
    const got = outcome.data.results.map((r) => [
      r.test_name, r.value, r.units ?? '', r.min_reference_range ?? null, r.max_reference_range ?? null, r.interpretation, r.loinc_matches?.[0]?.loinc_code,
    ]);
    expect(got).toEqual([
      ['fasting glucose', '95', 'mg/dL', 70, 99, 'normal', '2345-7'],
      ['Potassium', '5.6', 'mmol/L', 3.5, 5.2, 'abnormal', '2823-3'],
      ['Creatinine', '0.85', 'mg/dL', 0.57, 1, 'normal', '2160-0'],
      ['LDL Cholesterol', '131', 'mg/dL', null, 100, 'abnormal', '13457-7'],
      ['Triglycerides', '88', 'mg/dL', 0, 149, 'normal', '2571-8'],
      ['Hemoglobin A1c', '5.4', '%', 4, 5.6, 'normal', '4548-4'],
      ['HIV screen', 'non-reactive', '', null, null, 'unknown', '56888-1'],
    ]);
    // Only the approximate name of the HIV screen asks for a person; the clear values do not.
    const reasons = outcome.reviewReasons.results.map((r) => r.map((x) => x.code));
    expect(reasons.slice(0, 6)).toEqual([[], [], [], [], [], []]);
    expect(reasons[6]).toEqual(['loinc_low_confidence']);
    expect(outcome.reviewReasons.report.map((r) => r.code)).not.toContain('no_results');
  });
});

describe("an OCR'd leader line with a garbled range or a lower-case abbreviation", () => {
  const rows = page(
    [
      [100, [[72, 'Calcium'], [120, '..........'], [300, '10.0'], [330, 'ref:'], [360, '£.6-10.3'], [420, 'mg/dL']]],
      [114, [[72, 'co2'], [120, '..........'], [300, '21'], [320, '(L)'], [345, 'ref:'], [380, '22-29'], [420, 'mmol/L']]],
      [128, [[72, 'so'], [120, '..........'], [300, '5']]],
    ],
    1,
    { size: 10.5, confidence: 90 },
  );
  const results = readNarrative(rows);

  it("keeps the analyte's unit after a range OCR garbled, and asks a person to check the numbers", () => {
    expect(brief(results[0]!)).toEqual(['Calcium', '10.0', '', 'mg/dL', '']);
    expect(results[0]!.problems.map((p) => p.code)).toEqual(['range_suspect']);
  });

  it('reads "co2" as CO2, whose letters OCR cannot tell from capitals, and no other lower-case word as a name', () => {
    expect(results.slice(1).map(brief)).toEqual([['CO2', '21', 'Low', 'mmol/L', '22-29']]);
  });
});

describe('a result with its last result under it', () => {
  it('reads the result and leaves the earlier one as history, asking nothing of it', () => {
    const results = read(['Chloride', '98 mmol/L', 'Standard range: 98 - 107 mmol/L', 'Normal', 'Last result: 101 mmol/L on Dec 14, 2023']);
    expect(results.map(brief)).toEqual([['Chloride', '98', 'Normal', 'mmol/L', '98-107']]);
    expect(results[0]!.problems).toEqual([]);
  });
});

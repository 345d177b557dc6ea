import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseLabReport } from '../../../server/service/reader';
import { interpret, sameWords } from '../../../server/service/reader/interpret';
import { matchLoinc } from '../../../server/service/reader/loinc';
import { extractMetadata } from '../../../server/service/reader/metadata';
import { readNarrative } from '../../../server/service/reader/narrative';
import { openPdf, pageText } from '../../../server/service/reader/pdfText';
import { BOLD_FLAG, isLoincCode, markBoldAbnormal, readTables, type RawResult } from '../../../server/service/reader/tableReader';
import { isKnownQualitative, parseRange, parseValueCell, sexSpecificPart } from '../../../server/service/reader/values';
import { page, table, type Line } from './helpers';

/** Mechanisms of the sixth round of issue-13 reader work: each general, none a layout's own rule. */

const brief = (r: RawResult) => [r.testName, r.value.value, r.flag ?? '', r.units ?? '', r.rangeText ?? '', r.panel ?? ''];

describe('qualitative results in Spanish and German', () => {
  it('are results, not words to send to review, and compare with their expectation without accents', () => {
    for (const w of ['Negativo', 'Trazas', 'Amarillo', 'Transparente', 'No reactivo', 'negativ', 'nicht nachweisbar', 'klar']) {
      expect(isKnownQualitative(w), w).toBe(true);
      expect(parseValueCell(w).kind, w).toBe('qualitative');
    }
    expect(parseValueCell('Trazas *')).toMatchObject({ value: 'Trazas', flag: '*', kind: 'qualitative' });
    expect(isKnownQualitative('Muestra')).toBe(false);
    expect(parseRange('Negativo').expected).toBe('Negativo');
    expect(sameWords('Ámbar', 'ambar')).toBe(true);
    expect(sameWords('Ámbar', 'Amarillo')).toBe(false);
  });
});

describe('ranges printed per sex', () => {
  const text = 'Hombres: 13.5 - 17.5; Mujeres: 12.0 - 15.5';
  it("takes the patient's sex's bounds, and none when the sex is unknown", () => {
    expect(sexSpecificPart(text, 'female')).toBe('12.0 - 15.5');
    expect(sexSpecificPart('M: 0.7-1.3 / F: 0.5-1.1', 'male')).toBe('0.7-1.3');
    expect(sexSpecificPart(text, undefined)).toBeNull();
    expect(sexSpecificPart('3.5 - 5.1', 'female')).toBeUndefined();
    expect(sexSpecificPart('Adults: 3.5 - 5.1; Children: 3.4 - 4.7', 'female')).toBeUndefined();
    expect(parseRange(text, 'female')).toMatchObject({ min: 12, max: 15.5, text });
    expect(parseRange(text)).toEqual({ text, minInclusive: true, maxInclusive: true });
  });

  it('a range cell wrapped onto a second line joins the result above it; the interpretation uses the sex', () => {
    const rows = page([
      [100, [[44, 'ESTUDIO'], [250, 'RESULTADO'], [320, 'UNIDADES'], [410, 'VALORES DE REFERENCIA']]],
      ...table(120, [
        [[50, 'Hemoglobina'], [250, '13.0'], [320, 'g/dL'], [410, 'Hombres: 13.5 - 17.5']],
        [[410, 'Mujeres: 12.0 - 15.5']],
        [[50, 'Hematocrito'], [250, '44.0'], [320, '%'], [410, '36.0 - 46.0']],
        [[410, '(ver nota 3)']],
      ]),
    ]);
    const read = readTables([rows]);
    expect(read.results.map(brief)).toEqual([
      ['Hemoglobina', '13.0', '', 'g/dL', 'Hombres: 13.5 - 17.5; Mujeres: 12.0 - 15.5', ''],
      ['Hematocrito', '44.0', '', '%', '36.0 - 46.0', ''],
    ]);
    // 13.0 is within the women's range but below the men's.
    expect(interpret(read.results[0]!, 'female').result).toMatchObject({ min_reference_range: 12, max_reference_range: 15.5, interpretation: 'normal' });
    expect(interpret(read.results[0]!, 'male').result).toMatchObject({ min_reference_range: 13.5, interpretation: 'abnormal', is_below_min_range: true });
    expect(interpret(read.results[0]!).result.interpretation).toBe('unknown');
    // A line that is not a second range ("(ver nota 3)") is not joined to the one above.
    expect(read.unreadRows).toBe(1);
  });
});

describe('section headings away from the name column', () => {
  it('a heading centred over the table is the panel of the rows under it, whichever column it falls in', () => {
    const rows = page([
      [100, [[44, 'ESTUDIO'], [250, 'RESULTADO'], [320, 'UNIDADES'], [410, 'VALORES DE REFERENCIA']]],
      [120, [[256, 'QUÍMICA SANGUÍNEA']]],
      [132, [[282, 'Muestra: Suero']]],
      [146, [[50, 'Glucosa'], [250, '105 *'], [320, 'mg/dL'], [410, '70 - 99']]],
      [170, [[237, 'EXAMEN GENERAL DE ORINA']]],
      [182, [[283, 'Muestra: Orina']]],
      [196, [[50, 'Glucosa'], [250, 'Negativo'], [410, 'Negativo']]],
      [208, [[50, 'Cetonas'], [250, 'Trazas *'], [410, 'Negativo']]],
      // A qualitative word alone in the value column is a row whose name was lost, not a heading.
      [220, [[250, 'NEGATIVO']]],
    ]);
    const read = readTables([rows]);
    expect(read.results.map(brief)).toEqual([
      ['Glucosa', '105', '*', 'mg/dL', '70 - 99', 'QUÍMICA SANGUÍNEA'],
      ['Glucosa', 'Negativo', '', '', 'Negativo', 'EXAMEN GENERAL DE ORINA'],
      ['Cetonas', 'Trazas', '*', '', 'Negativo', 'EXAMEN GENERAL DE ORINA'],
    ]);
    expect(read.unreadRows).toBe(1);
    // The panel decides which glucose: blood under the chemistry, the urine strip under "orina".
    const code = (r: RawResult) => matchLoinc(r.testName, { units: r.units, panel: r.panel, qualitativeValue: r.value.kind === 'qualitative' }).matches.map((m) => m.loinc_code);
    expect(read.results.map(code)).toEqual([['2345-7'], ['5792-7'], ['5797-6']]);
  });
});

describe('table headers', () => {
  it('one column name no pattern knows does not undo a header; the column is read as nothing', () => {
    const rows = page([
      [100, [[36, 'Investigation'], [200, 'Observed Value'], [290, 'Unit'], [350, 'Biological Ref. Interval'], [480, 'Qualifier']]],
      [115, [[36, 'Sodium'], [200, '131'], [290, 'mmol/L'], [350, '136 - 145'], [480, 'xx']]],
    ]);
    expect(readTables([rows]).results.map(brief)).toEqual([['Sodium', '131', '', 'mmol/L', '136 - 145', '']]);
    // Two unknown names: not a header.
    const two = page([
      [100, [[36, 'Investigation'], [200, 'Observed Value'], [290, 'Unit'], [350, 'Qualifier'], [480, 'Zone']]],
      [115, [[36, 'Sodium'], [200, '131'], [290, 'mmol/L'], [350, 'a'], [480, 'b']]],
    ]);
    expect(readTables([two]).headerFound).toBe(false);
  });
});

describe('values in bold among regular ones', () => {
  const raw = (valueBold: boolean | undefined, flag?: string): RawResult => ({
    testName: 'Glucose', value: { value: '1', kind: 'numeric' }, page: 1, column: 'result', problems: [], source: 'text',
    ...(valueBold === undefined ? {} : { valueBold }), ...(flag ? { flag } : {}),
  });

  it('carry the bold mark as their flag, unless a flag is printed; a table all in bold says nothing', () => {
    const mixed = [raw(true), raw(false), raw(true, 'H'), raw(undefined)];
    markBoldAbnormal(mixed);
    expect(mixed.map((r) => r.flag)).toEqual([BOLD_FLAG, undefined, 'H', undefined]);
    const allBold = [raw(true), raw(true)];
    markBoldAbnormal(allBold);
    expect(allBold.map((r) => r.flag)).toEqual([undefined, undefined]);
  });

  it('from a PDF: the bold font of a value is read, and a bold value inside its range goes to review', async () => {
    const doc = await PDFDocument.create();
    const pdfPage = doc.addPage([612, 792]);
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const draw = (x: number, y: number, text: string, font = regular) => pdfPage.drawText(text, { x, y: 792 - y, size: 9, font });
    draw(36, 40, 'Riverside Clinical Laboratory');
    draw(36, 60, 'Patient: Jane Roe');
    draw(300, 60, 'DOB: 01/02/1980');
    draw(36, 100, 'Test');
    draw(200, 100, 'Result');
    draw(290, 100, 'Units');
    draw(360, 100, 'Reference Range');
    const rows: [string, string, string, string, boolean][] = [
      ['Sodium', '131', 'mmol/L', '136-145', true],
      ['Potassium', '4.2', 'mmol/L', '3.5-5.1', false],
      ['Chloride', '101', 'mmol/L', '98-107', true],
      ['ALT', '80', 'U/L', '7-56', false],
    ];
    rows.forEach(([name, value, units, range, isBold], i) => {
      const y = 115 + 12 * i;
      const font = isBold ? bold : regular;
      draw(36, y, name, font);
      draw(200, y, value, font);
      draw(290, y, units, font);
      draw(360, y, range);
    });
    const bytes = await doc.save();

    const opened = await openPdf(bytes);
    const text = await pageText(await opened.page(1), 1);
    await opened.close();
    expect(text!.items.find((i) => i.text === '131')?.bold).toBe(true);
    expect(text!.items.find((i) => i.text === '4.2')?.bold).toBeUndefined();

    const out = await parseLabReport(bytes);
    if (!out.ok) throw new Error(out.failureReason);
    expect(out.data.results.map((r) => [r.test_name, r.interpretation])).toEqual([
      ['Sodium', 'abnormal'],
      ['Potassium', 'normal'],
      ['Chloride', 'abnormal'],
      ['ALT', 'abnormal'],
    ]);
    const codes = out.reviewReasons.results.map((reasons) => reasons.map((r) => r.code));
    // Bold and low: as marked. Bold but within range, regular but high: each disagrees with its mark.
    expect(codes).toEqual([[], [], ['flag_inconsistent'], ['unflagged_out_of_range']]);
  });
});

describe('units', () => {
  it('reads UI (Spanish, French, Italian) as IU', () => {
    expect(matchLoinc('TSH', { units: 'µUI/mL' }).unitSpec?.units[0]).toBe('uIU/mL');
    expect(matchLoinc('TSH', { units: 'μUI/mL' }).unitSpec).toBeDefined();
  });
});

describe('guidance in notes', () => {
  it('a span of values or a risk statement after an analyte is guidance, not a result', () => {
    const rows = page([
      [100, [[48, 'About this test: an A1c of 5.7% to 6.4% suggests prediabetes; 6.5% or higher on two tests suggests diabetes.']]],
      [140, [[52, 'Hemoglobin A1c: 5.7-6.4 % increased risk for diabetes; <7.0 % goal for most adults with diabetes.']]],
      [180, [[48, 'Your Hemoglobin A1c was 6.1 %, against a reference range of 4.0-5.6.']]],
    ]);
    expect(readNarrative(rows, []).map((r) => [r.testName, r.value.value])).toEqual([['Hemoglobin A1c', '6.1']]);
  });
});

describe('metadata', () => {
  const read = (lines: Line[]) => extractMetadata(page(lines, 1)).metadata;

  it('a Latin American street-first address and a post-office box address, without the phone after them', () => {
    expect(read([
      [36, [[40, 'Laboratorios Médicos Santa Lucía']]],
      [58, [[40, 'Av. Vallarta 2440, Col. Arcos Vallarta, 44130 Guadalajara, Jal. · Tel. 33 5555 0168']]],
      [83, [[40, 'Paciente: Alejandra Morales López']]],
    ]).lab_address).toBe('Av. Vallarta 2440, Col. Arcos Vallarta, 44130 Guadalajara, Jal.');
    expect(read([
      [36, [[32, 'Gulf Medical Centre Clinical Laboratory']]],
      [60, [[32, 'Building 64, Dubai Healthcare City, P.O. Box 50512, Dubai, United Arab Emirates · Tel +971 4 555 0187']]],
    ]).lab_address).toBe('Building 64, Dubai Healthcare City, P.O. Box 50512, Dubai, United Arab Emirates');
    // A patient's labelled address is not the lab's.
    expect(read([
      [36, [[32, 'Gulf Medical Centre Clinical Laboratory']]],
      [60, [[32, 'Patient address: Villa 3, P.O. Box 1234, Dubai']]],
    ]).lab_address).toBeUndefined();
  });

  it("the lab named at the head of its CLIA line when the letterhead names no laboratory, never a sentence's subject", () => {
    const footer = read([
      [36, [[40, 'Northside Primary Care']]],
      [60, [[40, 'Patient: Jane Roe']]],
      [750, [[36, 'Acme Clinical Labs · 100 Main Street, Springfield, IL 62701 · CLIA #14D0123456 · Director: A. Smith, MD']]],
    ]);
    expect(footer).toMatchObject({ lab_name: 'Acme Clinical Labs', lab_address: '100 Main Street, Springfield, IL 62701', 'clia_#': '14D0123456' });
    const performed = read([
      [60, [[40, 'Patient: Jane Roe']]],
      [750, [[36, 'Laboratory testing performed by Lakeshore Diagnostics Laboratory, CLIA 14D0123456']]],
    ]);
    expect(performed.lab_name).toBe('Lakeshore Diagnostics Laboratory');
  });

  it('more label spellings', () => {
    const P = (t: string) => read([[40, [[36, 'Patient: Jane Roe'], [300, t]]]]);
    expect(P('Consultant: Dr. Amy Wu').provider).toBe('Dr. Amy Wu');
    expect(P('PCP: Amy Wu, MD').provider).toBe('Amy Wu, MD');
    expect(P('Logged In: 03/05/2024 09:12').date_received).toBe('03/05/2024 09:12');
    expect(P('Registered: 03/05/2024 09:12').date_received).toBeUndefined();
    expect(P('Approved: 03/05/2024 09:12').date_reported).toBe('03/05/2024 09:12');
    expect(P('Date of Issue: 03/05/2024').date_reported).toBe('03/05/2024');
    expect(P('Age/DOB: 64 / 03/05/1960').dob).toBe('03/05/1960');
    expect(P('DOB: 10/20/1979').dob).toBe('10/20/1979');
    expect(P('Birthdate/Sex: 03/05/1960 F')).toMatchObject({ dob: '03/05/1960', gender: 'female' });
    expect(P('Sex: Fem').gender).toBe('female');
    expect(P('M/F: M').gender).toBe('male');
  });
});

describe('after merging the 2026-11-29 tuning layouts', () => {
  it('a LOINC column: the printed code (check digit verified) is the result code; one naming another analyte goes to review', async () => {
    expect(['2345-7', '14771-0', '2823-3', '718-7'].map(isLoincCode)).toEqual([true, true, true, true]);
    expect(['2345-8', '14771-1', '3.5-5', '12-34'].map(isLoincCode)).toEqual([false, false, false, false]);
    const doc = await PDFDocument.create();
    const pdfPage = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const draw = (x: number, y: number, text: string) => pdfPage.drawText(text, { x, y: 792 - y, size: 9, font });
    draw(36, 40, 'Lakeside Community Laboratory');
    draw(36, 60, 'Patient: PETROV, AISHA');
    draw(300, 60, 'Date of Birth: 1980-11-11');
    [[36, 'Test'], [180, 'LOINC'], [250, 'Result'], [340, 'Reference Range'], [440, 'Flag']].forEach(([x, t]) => draw(x as number, 100, t as string));
    [
      ['Glucose Fasting', '14771-0', '5.8 mmol/L', '3.6 to 6.0'],
      ['Potassium', '2823-3', '4.1 mmol/L', '3.5 to 5.0'],
      ['Sodium', '2823-3', '140 mmol/L', '135 to 145'],
    ].forEach(([name, code, value, range], i) => {
      const y = 115 + 12 * i;
      draw(36, y, name!);
      draw(180, y, code!);
      draw(250, y, value!);
      draw(340, y, range!);
    });
    const out = await parseLabReport(await doc.save());
    if (!out.ok) throw new Error(out.failureReason);
    expect(out.data.results.map((r) => [r.test_name, r.value, r.units, r.loinc_matches?.[0]?.loinc_code, r.min_reference_range, r.max_reference_range])).toEqual([
      ['Glucose Fasting', '5.8', 'mmol/L', '14771-0', 3.6, 6],
      ['Potassium', '4.1', 'mmol/L', '2823-3', 3.5, 5],
      ['Sodium', '140', 'mmol/L', '2951-2', 135, 145],
    ]);
    expect(out.data.results[0]!.loinc_matches?.[0]?.loinc_name).toMatch(/^Fasting glucose/);
    expect(out.reviewReasons.results.map((reasons) => reasons.map((r) => r.code))).toEqual([[], [], ['loinc_ambiguous']]);
  });

  it('stars glued before a value are its flag: one abnormal, two critical', () => {
    expect(parseValueCell('*233')).toMatchObject({ value: '233', flag: '*', kind: 'numeric' });
    expect(parseValueCell('**6.8')).toMatchObject({ value: '6.8', flag: '**', kind: 'numeric' });
    expect(parseValueCell('*Positive')).toMatchObject({ value: 'Positive', flag: '*', kind: 'qualitative' });
    expect(parseValueCell('*6.2 H').problem).toMatch(/more than one flag/);
  });

  it('a method note in parentheses under a test, in smaller type, is not more of its name', () => {
    const rows = page([
      [100, [[40, 'Test Name'], [250, 'Value'], [330, 'Unit'], [420, 'Bio. Ref. Interval']]],
      [120, [[40, 'Haemoglobin'], [250, '14.4'], [330, 'g/dL'], [420, '12.0 - 15.0']]],
    ]).concat(page([[131, [[40, '(Photometry)']]]], 1, { size: 6.5 }));
    expect(readTables([rows]).results.map(brief)).toEqual([['Haemoglobin', '14.4', '', 'g/dL', '12.0 - 15.0', '']]);
  });

  it('dates as 16/Dec/2024 and 12/05/24-0805, Ref. By, Spec #, an address ending in a PIN code', () => {
    const metadata = extractMetadata(page([
      [34, [[34, 'Sanjeevani Diagnostics Pvt. Ltd.']]],
      [48, [[34, 'Plot No. 14, Sector 44, Gurugram, Haryana 122003 · Ph: 0124-555-0190']]],
      [71, [[40, 'Name'], [104, ': Mrs. MEERA VERMA'], [300, 'Collected on'], [380, ': 16/Dec/2024 08:10 AM']]],
      [84, [[40, 'Ref. By'], [104, ': Dr. Ravi Chandran'], [300, 'Received'], [380, ': 12/05/24-0836']]],
      [96, [[40, 'Spec #: 1205:C51090'], [300, 'Reported: 12/05/24-1909']]],
    ], 1)).metadata;
    expect(metadata).toMatchObject({
      patient_last_name: 'VERMA', date_collected: '16/Dec/2024 08:10 AM', date_received: '12/05/24-0836', date_reported: '12/05/24-1909',
      provider: 'Dr. Ravi Chandran', specimen_number: '1205:C51090', lab_address: 'Plot No. 14, Sector 44, Gurugram, Haryana 122003',
    });
    // A time is no specimen number.
    expect(extractMetadata(page([[40, [[36, 'Patient: Jane Roe'], [300, 'Specimen: 08:05']]]], 1)).metadata.specimen_number).toBeUndefined();
  });
});

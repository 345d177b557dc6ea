import { describe, expect, it } from 'vitest';
import { withDecimalPoints } from '../../../server/service/reader/decimalComma';
import { interpret } from '../../../server/service/reader/interpret';
import { matchLoinc } from '../../../server/service/reader/loinc';
import { extractMetadata } from '../../../server/service/reader/metadata';
import { buildRows } from '../../../server/service/reader/rows';
import { readTables } from '../../../server/service/reader/tableReader';
import type { PageText, TextItem } from '../../../server/service/reader/types';
import { pageText, type Line } from './helpers';

/**
 * A German laboratory report ("Laborbefund"): German labels, names and column headers, decimal
 * commas, lower-case units and "+"/"-" flags. Its numbers must come out as the numbers they are:
 * "4,2" read the US way is 42.
 */
const pageOf = (lines: Line[]) => pageText(lines, 1, { size: 9 });

const befund = pageOf([
  [40, [[48, 'MVZ Laborzentrum Rhein-Main GmbH'], [458, 'LABORBEFUND']]],
  [52, [[48, 'Kaiserstraße 12 · 60311 Frankfurt am Main · Tel. 069 555 0123']]],
  [70, [[48, 'Einsender'], [330, 'Patient:'], [392, 'Mbeki, Carlos']]],
  [82, [[48, 'Praxis Dr. med. Sabine Krüger'], [330, 'Geb.-Datum:'], [392, '03.08.1964']]],
  [94, [[48, 'Am Markt 3'], [330, 'Geschlecht:'], [392, 'männlich']]],
  [106, [[48, '65183 Wiesbaden'], [330, 'Auftrags-Nr.:'], [392, '2460801330']]],
  [118, [[330, 'Entnahme:'], [392, '12.01.2024 10:45']]],
  [130, [[330, 'Eingang:'], [392, '12.01.2024 11:11']]],
  [142, [[330, 'Befunddatum:'], [392, '13.01.2024 15:22']]],
  [160, [[52, 'Untersuchung'], [220, 'Ergebnis'], [286, 'Einheit'], [352, 'Referenzbereich']]],
  [172, [[48, 'Klinische Chemie']]],
  [184, [[58, 'Harnstoff'], [247, '45'], [268, '+'], [286, 'mg/dl'], [352, '17 - 43']]],
  [196, [[58, 'Kreatinin'], [239, '0,66'], [286, 'mg/dl'], [352, '0,60 - 1,20']]],
  [208, [[58, 'eGFR (CKD-EPI)'], [242, '>90'], [286, 'ml/min/1,73m²'], [352, '> 60']]],
  [220, [[58, 'Kalium'], [244, '2,9'], [268, '--'], [286, 'mmol/l'], [352, '3,5 - 5,1']]],
  [232, [[58, 'Gesamteiweiß'], [244, '6,1'], [286, 'g/dl'], [352, '6,0 - 8,3']]],
  [244, [[58, 'Leukozyten'], [244, '7,3'], [286, '/nl'], [352, '3,9 - 10,2']]],
]);

describe('a German laboratory report', () => {
  const rows = buildRows(withDecimalPoints([befund])[0]!);
  const read = readTables([rows]);

  it('reads every row under the German column headers, its numbers with a decimal point', () => {
    expect(read.results.map((r) => [r.testName, r.value.value, r.flag ?? '', r.units, r.rangeText])).toEqual([
      ['Harnstoff', '45', '+', 'mg/dl', '17 - 43'],
      ['Kreatinin', '0.66', '', 'mg/dl', '0.60 - 1.20'],
      ['eGFR (CKD-EPI)', '>90', '', 'ml/min/1,73m²', '> 60'],
      ['Kalium', '2.9', '--', 'mmol/l', '3.5 - 5.1'],
      ['Gesamteiweiß', '6.1', '', 'g/dl', '6.0 - 8.3'],
      ['Leukozyten', '7.3', '', '/nl', '3.9 - 10.2'],
    ]);
  });

  it('knows the German names and units of the analytes (urea in mg/dl is its own LOINC property)', () => {
    expect(read.results.map((r) => matchLoinc(r.testName, { units: r.units }).matches[0]?.loinc_code)).toEqual(['3091-6', '2160-0', '98979-8', '2823-3', '2885-2', '6690-2']);
  });

  it('takes "+" for high and "--" for critically low', () => {
    expect(read.results.map((r) => interpret(r).result.interpretation)).toEqual(['abnormal', 'normal', 'normal', 'critical', 'normal', 'normal']);
  });

  it('reads the patient, the dates, the order number, the sender and the lab from German labels', () => {
    const { metadata } = extractMetadata(read.otherRows);
    expect(metadata).toMatchObject({
      patient_first_name: 'Carlos',
      patient_last_name: 'Mbeki',
      dob: '03.08.1964',
      gender: 'male',
      specimen_number: '2460801330',
      date_collected: '12.01.2024 10:45',
      date_received: '12.01.2024 11:11',
      date_reported: '13.01.2024 15:22',
      provider: 'Dr. med. Sabine Krüger',
      lab_name: 'MVZ Laborzentrum Rhein-Main GmbH',
      lab_address: 'Kaiserstraße 12, 60311 Frankfurt am Main',
    });
  });
});

describe('decimal commas', () => {
  const item = (text: string): TextItem => ({ text, x: 0, y: 0, baseline: 0, width: 10, height: 9, page: 1, source: 'text' });
  const page = (texts: string[]): PageText => ({ page: 1, width: 595, height: 842, source: 'text', items: texts.map(item) });
  const texts = (p: PageText[]) => p[0]!.items.map((i) => i.text);

  it('rewrites the numbers of a report printed with decimal commas, and no date, unit or address', () => {
    expect(texts(withDecimalPoints([page(['4,2', '3,5 - 5,1', '< 5,0', '12.01.2024 10:45', 'ml/min/1,73m²', 'Hauptstraße 12, 60311 Frankfurt'])]))).toEqual([
      '4.2',
      '3.5 - 5.1',
      '< 5.0',
      '12.01.2024 10:45',
      'ml/min/1,73m²',
      'Hauptstraße 12, 60311 Frankfurt',
    ]);
  });

  it('leaves a report printed with decimal points as it is, thousands separators included', () => {
    const us = ['4.2', '3.5-5.1', '1,250', '0.90', '2,5', '1,5', '3,5'];
    expect(texts(withDecimalPoints([page(us)]))).toEqual(us);
  });

  it('leaves a report with a few commas and no points unchanged when they could be anything', () => {
    expect(texts(withDecimalPoints([page(['2,5', 'Glucose 95'])]))).toEqual(['2,5', 'Glucose 95']);
  });
});

describe('a German report read by OCR', () => {
  const ocrPage = (texts: string[]): PageText => ({
    page: 1,
    width: 2480,
    height: 3508,
    source: 'ocr',
    items: texts.map((text) => ({ text, x: 0, y: 0, baseline: 0, width: 10, height: 30, page: 1, source: 'ocr' as const, confidence: 90 })),
  });

  it('reads its commas as decimal points though OCR read some of them as points', () => {
    const out = withDecimalPoints([ocrPage(['10,9', '5.21', '13,1', '40,6', '32.3', '11,9'])]);
    expect(out[0]!.items.map((i) => i.text)).toEqual(['10.9', '5.21', '13.1', '40.6', '32.3', '11.9']);
  });

  it("takes the lab's street with its ß read as a B or an R", () => {
    const { metadata } = extractMetadata(buildRows(pageOf([[52, [[48, 'MVZ Laborzentrum Rhein-Main GmbH']]], [64, [[48, 'KaiserstraRe 12 - 60311 Frankfurt am Main - Tel. 069 555 0123']]]])));
    expect(metadata.lab_address).toBe('Kaiserstraße 12, 60311 Frankfurt am Main');
  });
});

describe('decimal commas and thousands', () => {
  const item = (text: string, source: 'text' | 'ocr'): TextItem => ({ text, x: 0, y: 0, baseline: 0, width: 10, height: 9, page: 1, source });
  const rewrite = (texts: string[], source: 'text' | 'ocr') =>
    withDecimalPoints([{ page: 1, width: 595, height: 842, source, items: texts.map((t) => item(t, source)) }])[0]!.items.map((i) => i.text);

  it("never takes a US thousands group for decimals, on a scan whose points OCR read as commas", () => {
    expect(rewrite(['0,92', '4,1', '3.5-5,1', '4,200', '1,500-7,800', '1,250'], 'ocr')).toEqual(['0.92', '4.1', '3.5-5.1', '4,200', '1,500-7,800', '1,250']);
  });

  it('reads a point in a decimal-comma report as a thousands separator', () => {
    expect(rewrite(['4,2', '3,5 - 5,1', '0,66', 'Thrombozyten 1.250', '12.01.2024'], 'text')).toEqual(['4.2', '3.5 - 5.1', '0.66', 'Thrombozyten 1250', '12.01.2024']);
  });
});

describe('a Mexican laboratory report', () => {
  const informe = pageOf([
    [40, [[40, 'Paciente: Ricardo Martínez Flores'], [360, 'Folio: 575-647673']]],
    [52, [[40, 'Fecha de nacimiento: 19/04/1995'], [360, 'Edad: 29 años']]],
    [64, [[40, 'Sexo: Masculino'], [360, 'Médico: Dra. Patricia Medina Soto']]],
    [90, [[44, 'ESTUDIO'], [250, 'RESULTADO'], [320, 'UNIDADES'], [410, 'VALORES DE REFERENCIA']]],
    [102, [[50, 'Sodio'], [250, '139'], [320, 'mmol/L'], [410, '136 - 145']]],
    [114, [[50, 'Triglicéridos'], [250, '151 *'], [320, 'mg/dL'], [410, 'Menor de 150']]],
    [126, [[50, 'Colesterol HDL'], [250, '82'], [320, 'mg/dL'], [410, 'Mayor de 40']]],
    [138, [[50, 'Plaquetas'], [250, '250'], [320, 'miles/µL'], [410, '150 - 450']]],
  ]);
  const read = readTables([buildRows(informe)]);

  it('reads Spanish headers, names, units and ranges in words', () => {
    expect(read.results.map((r) => [r.testName, r.value.value, r.flag ?? '', matchLoinc(r.testName, { units: r.units }).matches[0]?.loinc_code, interpret(r).result.interpretation])).toEqual([
      ['Sodio', '139', '', '2951-2', 'normal'],
      ['Triglicéridos', '151', '*', '2571-8', 'abnormal'],
      ['Colesterol HDL', '82', '', '2085-9', 'normal'],
      ['Plaquetas', '250', '', '777-3', 'normal'],
    ]);
    expect(read.results.map((r) => interpret(r).result.max_reference_range)).toEqual([145, 150, undefined, 450]);
  });

  it('reads the sex and the order number from Spanish labels', () => {
    expect(extractMetadata(read.otherRows).metadata).toMatchObject({ gender: 'male', specimen_number: '575-647673', dob: '19/04/1995' });
  });
});

describe('a result in two units', () => {
  it('takes the first result, unit and range columns, not the SI ones beside them', () => {
    const rows = buildRows(
      pageOf([
        [90, [[40, 'Test'], [200, 'Result'], [250, 'Units'], [300, 'Result (SI)'], [360, 'Units (SI)'], [420, 'Reference range'], [500, 'Reference range (SI)']]],
        [102, [[40, 'Glucose'], [200, '95'], [250, 'mg/dL'], [300, '5.3'], [360, 'mmol/L'], [420, '70-99'], [500, '3.9-5.5']]],
      ]),
    );
    expect(readTables([rows]).results.map((r) => [r.value.value, r.units, r.rangeText])).toEqual([['95', 'mg/dL', '70-99']]);
  });
});

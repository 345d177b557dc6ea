import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { closeParser, parseLabReport } from '../../reader';
import { openPdf, pageText } from '../../reader/pdfText';
import type { TextItem } from '../../reader/types';
import { renderResultReport, resultFlag, type ReportResultRow, type ReportSection, type ResultReportInput } from './reportPdf';

/**
 * The report is checked the way its readers see it: the text layer pulled back out of the PDF
 * (with the service's own PDF reader), positions included, so a row drawn over the footer or a
 * name running into the result column fails here even though pdf-lib drew it without complaint.
 */

const PAGE_HEIGHT = 792;
/** Top-down baseline of the footer line; content must stay above the footer rule (y = 46 from the bottom). */
const FOOTER_BASELINE = PAGE_HEIGHT - 34;
const CONTENT_LIMIT = PAGE_HEIGHT - 46;
const COLUMN_X = { name: 36, result: 230, flag: 334, units: 372, range: 462, right: 576 };

interface ReadPage {
  items: TextItem[];
  /** One string per printed line (items sharing a baseline, left to right, joined by " | "). */
  lines: string[];
  text: string;
}

async function readPdf(bytes: Uint8Array): Promise<ReadPage[]> {
  const doc = await openPdf(bytes);
  try {
    const pages: ReadPage[] = [];
    for (let n = 1; n <= doc.pageCount; n++) {
      const text = await pageText(await doc.page(n), n);
      const items = text?.items ?? [];
      const byLine = new Map<number, TextItem[]>();
      for (const item of items) {
        const key = Math.round(item.baseline);
        byLine.set(key, [...(byLine.get(key) ?? []), item]);
      }
      const lines = [...byLine.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, its]) => its.sort((a, b) => a.x - b.x).map((i) => i.text).join(' | '));
      pages.push({ items, lines, text: lines.join('\n') });
    }
    return pages;
  } finally {
    await doc.close();
  }
}

function row(name: string, result: string, extra: Partial<ReportResultRow> = {}): ReportResultRow {
  return { name, result, type: 'numeric', ...extra };
}

function report(overrides: Partial<ResultReportInput> = {}): ResultReportInput {
  return {
    status: 'final',
    laboratory: { name: 'Quest Diagnostics', address: '500 Plaza Drive, Secaucus, NJ 07094', clia: '31D0696246', director: 'Jane Smith, MD', phone: '(800) 555-0100' },
    patient: { name: 'DOE, JANE', dob: '1980-01-02', sex: 'Female', age: '46 Y', patientId: 'PT-1001' },
    specimenNumber: 'SP123456',
    accountId: 'ACC-77',
    orderingProvider: 'John Carter, MD',
    labTestName: 'Comprehensive Metabolic Panel',
    collectedAt: new Date('2026-11-24T13:30:00Z'),
    receivedAt: new Date('2026-11-24T16:05:00Z'),
    reportedAt: new Date('2026-11-25T09:12:00Z'),
    timeZone: 'America/New_York',
    sections: [
      {
        name: 'Comprehensive Metabolic Panel',
        rows: [
          row('Glucose', '105', { unit: 'mg/dL', referenceRange: '70-99', interpretation: 'abnormal', isAboveMaxRange: true, notes: 'Fasting specimen.' }),
          row('Potassium', '4.2', { unit: 'mmol/L', referenceRange: '3.5-5.3', interpretation: 'normal' }),
          row('Creatinine', '0.55', { unit: 'mg/dL', referenceRange: '0.60-1.00', interpretation: 'abnormal', isBelowMinRange: true }),
        ],
      },
      {
        name: 'Lipid Panel',
        rows: [
          row('Cholesterol, Total', '210', { unit: 'mg/dL', referenceRange: '<200', interpretation: 'abnormal', isAboveMaxRange: true }),
          row('HDL Cholesterol', '55', { unit: 'mg/dL', referenceRange: '>=40', interpretation: 'normal' }),
        ],
      },
      {
        name: 'HIV Screen',
        rows: [
          row('HIV-1/2 Ag/Ab, 4th Gen', 'Reactive', { type: 'coded_value', referenceRange: 'Non-Reactive', interpretation: 'abnormal' }),
          row('Interpretation', 'Reactive screen. Confirmatory testing has been added to this order and will be reported separately.', { type: 'comment' }),
        ],
      },
    ],
    missing: [],
    comments: [],
    ...overrides,
  };
}

const criticalSodium = (): ReportSection => ({
  name: 'Electrolytes',
  rows: [row('Sodium', '118', { unit: 'mmol/L', referenceRange: '135-146', interpretation: 'critical', isBelowMinRange: true })],
});

/** Every text item inside the page, and above the footer unless it is the footer. */
function expectWithinPage(pages: ReadPage[]) {
  for (const page of pages) {
    for (const item of page.items) {
      expect(item.x, item.text).toBeGreaterThanOrEqual(COLUMN_X.name - 0.5);
      expect(item.x + item.width, item.text).toBeLessThanOrEqual(COLUMN_X.right + 0.5);
      if (Math.abs(item.baseline - FOOTER_BASELINE) > 1) expect(item.baseline, item.text).toBeLessThan(CONTENT_LIMIT - 4);
    }
  }
}

afterAll(async () => {
  await closeParser();
});

describe('resultFlag', () => {
  it.each<[string, Partial<ReportResultRow>, string]>([
    ['abnormal above the range', { interpretation: 'abnormal', isAboveMaxRange: true }, 'H'],
    ['abnormal below the range', { interpretation: 'abnormal', isBelowMinRange: true }, 'L'],
    ['critical above the range', { interpretation: 'critical', isAboveMaxRange: true }, 'HH'],
    ['critical below the range', { interpretation: 'critical', isBelowMinRange: true }, 'LL'],
    ['abnormal without a direction (Reactive)', { result: 'Reactive', interpretation: 'abnormal' }, 'A'],
    ['normal', { interpretation: 'normal' }, ''],
    ['normal even when a range boolean disagrees (the lab has the last word)', { interpretation: 'normal', isAboveMaxRange: true }, ''],
    ['no interpretation, above the range', { interpretation: null, isAboveMaxRange: true }, 'H'],
    ['no interpretation, below the range', { isBelowMinRange: true }, 'L'],
    ['no interpretation and no booleans', {}, ''],
    ['an unknown interpretation', { interpretation: 'unknown' }, ''],
    ['upper-case interpretation', { interpretation: ' ABNORMAL ', isAboveMaxRange: true }, 'H'],
    ['abnormal, direction read from a plain range', { result: '210', referenceRange: '<200', interpretation: 'abnormal' }, 'H'],
    ['abnormal, direction read from a min-max range', { result: '60', referenceRange: '70 – 99', interpretation: 'abnormal' }, 'L'],
    ['critical, direction read from the range', { result: '7.1', referenceRange: '3.5-5.3', interpretation: 'critical' }, 'HH'],
    ['critical without any direction', { result: 'Positive', interpretation: 'critical' }, 'AA'],
  ])('%s', (_label, extra, flag) => {
    expect(resultFlag({ name: 'Test', result: '1', type: 'numeric', ...extra })).toBe(flag);
  });
});

describe('renderResultReport', () => {
  it('prints the patient, the specimen and every result with its unit, range and flag in its columns', async () => {
    const bytes = await renderResultReport(report());
    const pages = await readPdf(bytes);
    expect(pages).toHaveLength(1);
    const { text, lines, items } = pages[0]!;
    expect(text).toContain('Patient Name: | DOE, JANE');
    expect(text).toContain('Date of Birth: | 01/02/1980');
    expect(text).toContain('Specimen Number: | SP123456');
    expect(text).toContain('Age: | 46 Y');
    expect(text).toContain('Sex: | Female');
    expect(text).toContain('Patient ID: | PT-1001');
    expect(text).toContain('Account Number: | ACC-77');
    expect(text).toContain('Ordering Provider: | John Carter, MD');
    expect(text).toContain('CLIA: | 31D0696246');
    expect(text).toContain('Laboratory Director: | Jane Smith, MD');
    expect(text).toContain('500 Plaza Drive, Secaucus, NJ 07094');
    expect(lines).toContain('Test | Result | Flag | Units | Reference Range');
    expect(lines).toContain('Glucose | 105 | H | mg/dL | 70-99');
    expect(lines).toContain('Potassium | 4.2 | mmol/L | 3.5-5.3');
    expect(lines).toContain('Creatinine | 0.55 | L | mg/dL | 0.60-1.00');
    expect(lines).toContain('Cholesterol, Total | 210 | H | mg/dL | <200');
    expect(lines).toContain('HDL Cholesterol | 55 | mg/dL | >=40');
    expect(lines).toContain('HIV-1/2 Ag/Ab, 4th Gen | Reactive | A | Non-Reactive');
    expect(lines).toContain('Note: Fasting specimen.');
    for (const section of ['Comprehensive Metabolic Panel', 'Lipid Panel', 'HIV Screen']) expect(lines).toContain(section);

    const at = (text: string) => items.find((i) => i.text === text)!;
    expect(at('105').x).toBeCloseTo(COLUMN_X.result, 0);
    expect(at('H').x).toBeCloseTo(COLUMN_X.flag, 0);
    expect(at('mmol/L').x).toBeCloseTo(COLUMN_X.units, 0);
    expect(at('3.5-5.3').x).toBeCloseTo(COLUMN_X.range, 0);
    // The note sits indented under its row, the comment's text across the result columns.
    expect(at('Note: Fasting specimen.').x).toBeGreaterThan(COLUMN_X.name);
    expect(at('Note: Fasting specimen.').baseline).toBeGreaterThan(at('105').baseline);
    const comment = items.filter((i) => i.text.includes('Confirmatory') || i.text.includes('separately'));
    expect(comment.length).toBeGreaterThanOrEqual(1);
    for (const i of comment) {
      expect(i.x).toBeCloseTo(COLUMN_X.result, 0);
      expect(i.x + i.width).toBeLessThanOrEqual(COLUMN_X.right);
    }
    expect(comment.map((i) => i.text).join(' ')).toContain('will be reported separately.');
    expect(text).toContain('Page 1 of 1');
    expect(text).toContain('Performing Laboratory: Quest Diagnostics');
    expect(text).toContain('End of Report');
    expectWithinPage(pages);
  });

  it('sets the title and producer, and gives the same bytes for the same input (no clock)', async () => {
    const bytes = await renderResultReport(report());
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Quest Diagnostics result report - SP123456');
    expect(doc.getProducer()).toBe('Labdesk');
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([width, height]).toEqual([612, 792]);
    expect(Buffer.from(await renderResultReport(report())).equals(Buffer.from(bytes))).toBe(true);
  });

  it('says FINAL, PRELIMINARY for partial results, and other statuses in capitals', async () => {
    const final = (await readPdf(await renderResultReport(report({ status: 'final' }))))[0]!.text;
    expect(final).toContain('FINAL REPORT');
    expect(final).not.toContain('PRELIMINARY');
    const partial = (await readPdf(await renderResultReport(report({ status: 'partial' }))))[0]!.text;
    expect(partial).toContain('PRELIMINARY REPORT - PARTIAL RESULTS');
    expect(partial).not.toContain('FINAL REPORT');
    const corrected = (await readPdf(await renderResultReport(report({ status: 'corrected' }))))[0]!.text;
    expect(corrected).toContain('CORRECTED');
    expect(corrected).not.toMatch(/FINAL REPORT|PRELIMINARY/);
  });

  it('prints times in the given zone with its abbreviation', async () => {
    const newYork = (await readPdf(await renderResultReport(report())))[0]!.text;
    expect(newYork).toContain('Collected: | 11/24/2026 08:30 EST');
    expect(newYork).toContain('Received: | 11/24/2026 11:05 EST');
    expect(newYork).toContain('Reported: | 11/25/2026 04:12 EST');

    const summer = (await readPdf(await renderResultReport(report({ collectedAt: new Date('2026-07-01T13:30:00Z') }))))[0]!.text;
    expect(summer).toContain('Collected: | 07/01/2026 09:30 EDT');

    const la = (await readPdf(await renderResultReport(report({ timeZone: 'America/Los_Angeles' }))))[0]!.text;
    expect(la).toContain('Collected: | 11/24/2026 05:30 PST');

    // Midnight is 00, not 24; a missing time is a dash; an unknown zone falls back to UTC.
    const odd = (await readPdf(await renderResultReport(report({ timeZone: 'Mars/Olympus_Mons', receivedAt: null, reportedAt: new Date('2026-11-25T00:05:00Z') }))))[0]!.text;
    expect(odd).toContain('Collected: | 11/24/2026 13:30 UTC');
    expect(odd).toContain('Received: | -');
    expect(odd).toContain('Reported: | 11/25/2026 00:05 UTC');
  });

  it('shows a critical-value banner on the first page only when a result is critical', async () => {
    const calm = (await readPdf(await renderResultReport(report())))[0]!.text;
    expect(calm).not.toContain('CRITICAL');

    const base = report();
    const pages = await readPdf(await renderResultReport(report({ sections: [criticalSodium(), ...base.sections, manyRows('Extra Panel', 80)] })));
    expect(pages.length).toBeGreaterThan(1);
    const first = pages[0]!;
    expect(first.text).toContain('CRITICAL VALUE(S) REPORTED');
    expect(first.text).toContain('Sodium: 118 mmol/L (LL)');
    expect(first.lines).toContain('Sodium | 118 | LL | mmol/L | 135-146');
    // The banner comes before the table.
    const banner = first.items.find((i) => i.text === 'CRITICAL VALUE(S) REPORTED')!;
    const header = first.items.find((i) => i.text === 'Reference Range')!;
    expect(banner.baseline).toBeLessThan(header.baseline);
    for (const page of pages.slice(1)) expect(page.text).not.toContain('CRITICAL VALUE');
  });

  it('spreads 120 rows over several pages, each with the header, the table header and "Page k of N"', async () => {
    const pages = await readPdf(await renderResultReport(report({ sections: [manyRows('Big Panel', 120)] })));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, i) => {
      expect(page.text).toContain('Patient Name: | DOE, JANE');
      expect(page.text).toContain('Specimen Number: | SP123456');
      expect(page.text).toContain('FINAL REPORT');
      expect(page.lines).toContain('Test | Result | Flag | Units | Reference Range');
      expect(page.text).toContain(`Page ${i + 1} of ${pages.length}`);
      if (i > 0) expect(page.lines).toContain('Big Panel (cont.)');
    });
    // Every row printed exactly once, in order, none of them lost at a page break.
    const printed = pages.flatMap((p) => p.lines.filter((l) => l.startsWith('Analyte ')));
    expect(printed).toHaveLength(120);
    expect(printed[0]).toBe(`${analyteName(0)} | 0 | H | mg/dL | 1-100`);
    expect(printed[119]).toBe(`${analyteName(119)} | 119 | mg/dL | 1-100`);
    expectWithinPage(pages);
  });

  it('never leaves a section header alone at the bottom of a page', async () => {
    // Fill the first page by one more row each time, so the second section's header falls on
    // every possible position near the bottom.
    for (let n = 36; n <= 50; n++) {
      const pages = await readPdf(await renderResultReport(report({ sections: [manyRows('First Panel', n), manyRows('Second Panel', 3)] })));
      for (const page of pages) {
        const header = page.items.find((i) => i.text === 'Second Panel');
        if (!header) continue;
        const below = page.items.filter((i) => i.baseline > header.baseline + 1 && i.text.startsWith('Analyte ') && i.x === header.x);
        expect(below.length, `${n} rows before`).toBeGreaterThan(0);
      }
      expect(pages.some((p) => p.lines.includes('Second Panel'))).toBe(true);
      expectWithinPage(pages);
    }
  });

  it('lists results the lab could not produce, with the reason in words', async () => {
    const missing: ResultReportInput['missing'] = [
      { name: 'Vitamin D, 25-Hydroxy', reason: 'quantity_not_sufficient_failure', note: 'Please recollect.' },
      { name: 'Ferritin', reason: 'insufficient_volume' },
      { name: 'Lead', reason: 'collection_process_failure' },
      { name: 'TSH', reason: 'internal_lab_failure' },
      { name: 'LDH', reason: 'patient_condition_failure' },
      { name: 'eGFR', reason: 'missing_result_calc_failure' },
      { name: 'eGFR (CKD-EPI)', reason: 'missing_demo_aoe_calc_failure' },
      { name: 'Iron', reason: 'brand_new_failure_kind' },
    ];
    const { text } = (await readPdf(await renderResultReport(report({ missing }))))[0]!;
    expect(text).toContain('Results not reported');
    expect(text).toContain('Vitamin D, 25-Hydroxy: Quantity not sufficient - Please recollect.');
    expect(text).toContain('Ferritin: Insufficient volume');
    expect(text).toContain('Lead: Specimen collection problem');
    expect(text).toContain('TSH: Laboratory error');
    expect(text).toContain('LDH: Patient condition (e.g. hemolysis, lipemia)');
    expect(text).toContain('eGFR: Could not be calculated');
    expect(text).toContain("eGFR (CKD-EPI): Not calculable from the patient's age, sex or answers");
    expect(text).toContain('Iron: Brand new failure kind');
    expect(text).not.toContain('_failure');

    const none = (await readPdf(await renderResultReport(report())))[0]!.text;
    expect(none).not.toContain('Results not reported');
  });

  it('prints report comments in their own section', async () => {
    const { text } = (await readPdf(await renderResultReport(report({ comments: ['Specimen received at ambient temperature.', 'Verified by a second technologist.'] }))))[0]!;
    expect(text).toContain('Comments');
    expect(text).toContain('Specimen received at ambient temperature.');
    expect(text).toContain('Verified by a second technologist.');
    expect(text.indexOf('Comments')).toBeGreaterThan(text.indexOf('Cholesterol, Total'));
  });

  it('draws hostile text (emoji, CJK, control characters, a 5,000-character note, empty sections) without throwing, inside the page', async () => {
    const longNote = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ').padEnd(5000, 'x');
    const input = report({
      status: 'amended 🚀',
      laboratory: { name: '实验室 Acme Lab 🧪', address: 'Straße 1, Zürich\u0000\u0007', clia: '\tCLIA\n1', director: null, phone: null },
      patient: { name: 'Zoë 山田 Ødegård 👩‍⚕️', dob: 'not a date', sex: '', age: '', patientId: null },
      specimenNumber: '',
      labTestName: 'x'.repeat(500),
      collectedAt: new Date('invalid'),
      timeZone: '',
      sections: [
        { name: '', rows: [] },
        {
          name: `🧬 ${'Very Long Panel Name '.repeat(20)}`,
          rows: [
            row(`Hemoglobin A1c with estimated average glucose 山田 ${'y'.repeat(300)}`, `10⁹/L µg ≥5 – ${'9'.repeat(80)}`, {
              unit: 'µmol/L per 1.73 m² and much more than a unit column can hold',
              referenceRange: '3.5–5.0 (adult) ≥18 years; 2.0–4.0 (child) under eighteen years of age, fasting, “quoted”',
              interpretation: 'critical',
              notes: longNote,
            }),
            row('', '', { type: '', unit: null, referenceRange: null, interpretation: 'weird', notes: '\n\u200b\n' }),
            row('Comment', `Line one\nLine two 😀\r\n${'lorem ipsum '.repeat(400)}`, { type: 'comment' }),
            row('😀😀', '😀', { unit: '😀', referenceRange: '😀' }),
          ],
        },
        { name: 'Empty Section', rows: [] },
      ],
      missing: [{ name: '', reason: '' }, { name: '山田 Test', reason: 'odd_reason', note: 'z'.repeat(3000) }],
      comments: ['', '😀😀😀', 'Line\u2028break and NEL\u0085here'],
    });
    const bytes = await renderResultReport(input);
    const pages = await readPdf(bytes);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.length).toBeLessThan(10);
    expectWithinPage(pages);
    const all = pages.map((p) => p.text).join('\n');

    // Replaced, not dropped: what a lab's ASCII system would print.
    expect(all).toContain('10^9/L ug >=5 -');
    expect(all).toContain('umol/L');
    expect(all).toContain('3.5-5.0 (adult) >=18');
    expect(all).toContain('"quoted"');
    expect(all).toContain('Zoë Ødegård');
    expect(all).toContain('Straße 1, Zürich');
    expect(all).toContain('AMENDED');
    expect(all).not.toContain('Empty Section');
    expect(all).toContain('CRITICAL VALUE(S) REPORTED');
    // Every word of the long note made it, across lines (and pages if need be).
    const noteText = pages.flatMap((p) => p.items.filter((i) => i.x > COLUMN_X.name + 5 && i.x < COLUMN_X.result && i.text.includes('word'))).map((i) => i.text).join(' ');
    expect(noteText).toContain('Note: word0 word1');
    expect(noteText).toContain('word499');

    // Wrapped and cut text stays in its own column.
    for (const page of pages) {
      for (const item of page.items) {
        if (Math.abs(item.x - COLUMN_X.name) < 0.5 && /^(Hemoglobin|glucose|y{5})/.test(item.text)) expect(item.x + item.width).toBeLessThanOrEqual(COLUMN_X.result - 4);
        if (Math.abs(item.x - COLUMN_X.result) < 0.5 && /^(10\^9|9{5})/.test(item.text)) expect(item.x + item.width).toBeLessThanOrEqual(COLUMN_X.flag - 4);
        if (Math.abs(item.x - COLUMN_X.units) < 0.5) expect(item.x + item.width).toBeLessThanOrEqual(COLUMN_X.range - 4);
      }
    }
    const title = (await PDFDocument.load(bytes, { updateMetadata: false })).getTitle();
    expect(title).toBe('实验室 Acme Lab 🧪 result report - ');
  });

  it('keeps an enormous note to a few pages, and says it was cut', async () => {
    const base = report();
    const sections = [{ ...base.sections[0]!, rows: [row('Glucose', '90', { notes: 'lorem ipsum '.repeat(100_000) })] }];
    const started = performance.now();
    const pages = await readPdf(await renderResultReport(report({ sections })));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(pages.length).toBeLessThanOrEqual(5);
    expect(pages.map((p) => p.text).join('\n')).toMatch(/lorem ipsum \.\.\.$|\.\.\.\n/m);
    expectWithinPage(pages);
  });

  it('renders a report with no results at all', async () => {
    const pages = await readPdf(await renderResultReport(report({ sections: [], missing: [{ name: 'TSH', reason: 'drop_off_failure' }] })));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.text).toContain('No results have been reported for this specimen yet.');
    expect(pages[0]!.text).toContain('TSH: Specimen drop-off problem');
  });

  it('is read back by the service\'s own lab-report reader: metadata, values, units, ranges and panels', async () => {
    const outcome = await parseLabReport(await renderResultReport(report({ sections: [criticalSodium(), ...report().sections] })));
    if (!outcome.ok) throw new Error(outcome.failureReason);
    expect(outcome.stats.ocrPages).toBe(0);
    expect(outcome.data.metadata).toMatchObject({
      patient_first_name: 'JANE',
      patient_last_name: 'DOE',
      dob: '01/02/1980',
      lab_name: 'Quest Diagnostics',
      specimen_number: 'SP123456',
      date_collected: '11/24/2026 08:30 EST',
    });
    const read = outcome.data.results.map((r) => [r.test_name, r.value, r.units ?? null, r.interpretation ?? null, r.source_panel_name ?? null]);
    expect(read).toEqual(
      expect.arrayContaining([
        ['Sodium', '118', 'mmol/L', 'critical', 'Electrolytes'],
        ['Glucose', '105', 'mg/dL', 'abnormal', 'Comprehensive Metabolic Panel'],
        ['Potassium', '4.2', 'mmol/L', 'normal', 'Comprehensive Metabolic Panel'],
        ['Creatinine', '0.55', 'mg/dL', 'abnormal', 'Comprehensive Metabolic Panel'],
        ['Cholesterol, Total', '210', 'mg/dL', 'abnormal', 'Lipid Panel'],
        ['HDL Cholesterol', '55', 'mg/dL', 'normal', 'Lipid Panel'],
      ]),
    );
    const glucose = outcome.data.results.find((r) => r.test_name === 'Glucose')!;
    expect([glucose.min_reference_range, glucose.max_reference_range]).toEqual([70, 99]);
    // Notes are not mistaken for results or for the tail of a test name.
    expect(outcome.data.results.some((r) => /note/i.test(r.test_name))).toBe(false);
  });

  it('is read back across pages too', async () => {
    const outcome = await parseLabReport(await renderResultReport(report({ sections: [realisticPanel(60)] })));
    if (!outcome.ok) throw new Error(outcome.failureReason);
    expect(outcome.stats.pages).toBeGreaterThan(1);
    const values = new Map(outcome.data.results.map((r) => [r.test_name, r.value]));
    for (const [i, name] of REAL_NAMES.entries()) expect(values.get(name), name).toBe(String(10 + i));
    expect(outcome.data.results.every((r) => r.source_panel_name === 'Chemistry')).toBe(true);
  });
});

function analyteName(i: number): string {
  return `Analyte ${String.fromCharCode(65 + (i % 26))}${i}`;
}

/** Rows whose first one is high, the rest normal. */
function manyRows(name: string, count: number): ReportSection {
  return {
    name,
    rows: Array.from({ length: count }, (_, i) =>
      row(analyteName(i), String(i), { unit: 'mg/dL', referenceRange: '1-100', interpretation: i === 0 ? 'abnormal' : 'normal', isAboveMaxRange: i === 0 }),
    ),
  };
}

/** Real analyte names: the reader drops rows whose text repeats on every page, as numbered dummies would. */
const REAL_NAMES = [
  'Glucose', 'BUN', 'Creatinine', 'Sodium', 'Potassium', 'Chloride', 'Carbon Dioxide', 'Calcium', 'Protein, Total', 'Albumin',
  'Globulin', 'Bilirubin, Total', 'Alkaline Phosphatase', 'AST', 'ALT', 'Cholesterol, Total', 'HDL Cholesterol', 'Triglycerides',
  'LDL-Cholesterol', 'WBC', 'RBC', 'Hemoglobin', 'Hematocrit', 'MCV', 'MCH', 'MCHC', 'RDW', 'Platelet Count', 'TSH', 'Free T4',
  'Ferritin', 'Iron, Total', 'Magnesium', 'Phosphorus', 'Uric Acid', 'Vitamin B12', 'Folate', 'Hemoglobin A1c', 'Insulin',
  'C-Reactive Protein', 'Homocysteine', 'Lipase', 'Amylase', 'GGT', 'LDH', 'Creatine Kinase', 'Cortisol', 'Testosterone, Total',
  'Estradiol', 'Prolactin', 'PSA, Total', 'Vitamin D, 25-Hydroxy', 'Zinc', 'Copper', 'Selenium', 'Apolipoprotein B',
  'Lipoprotein (a)', 'Fibrinogen', 'Cystatin C', 'Prealbumin',
];

function realisticPanel(count: number): ReportSection {
  return {
    name: 'Chemistry',
    rows: REAL_NAMES.slice(0, count).map((name, i) => row(name, String(10 + i), { unit: 'mg/dL', referenceRange: '1-1000', interpretation: 'normal' })),
  };
}

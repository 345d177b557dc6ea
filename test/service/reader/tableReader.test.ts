import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../../server/service/reader/metadata';
import { interpret } from '../../../server/service/reader/interpret';
import { readTables, type RawResult } from '../../../server/service/reader/tableReader';
import { page, table, type Line } from './helpers';

const brief = (r: RawResult) => [r.testName, r.value.value, r.flag ?? '', r.units ?? '', r.rangeText ?? '', r.panel ?? ''];

describe('current/previous layout (Test | Current Result and Flag | Previous Result and Date | Units | Reference Interval)', () => {
  const header: Line = [150, [[36, 'Test'], [200, 'Current Result and Flag'], [312, 'Previous Result and Date'], [428, 'Units'], [492, 'Reference Interval']]];
  const rows = page([
    [40, [[36, 'Northwind Clinical Laboratories']]],
    [70, [[36, 'Patient Name: DOE, JANE A'], [330, 'Specimen ID: 123-456-7890-0']]],
    [82, [[36, 'Date of Birth: 03/14/1979'], [330, 'Date Collected: 01/15/2024 0830']]],
    [94, [[36, 'Age: 44   Sex: F'], [330, 'Date Reported: 01/16/2024 1420']]],
    header,
    ...table(170, [
      [[36, 'Comp. Metabolic Panel (14)']],
      [[36, 'Glucose'], [200, '101 High'], [312, '95   01/12/2023'], [428, 'mg/dL'], [492, '70-99']],
      [[36, 'Potassium'], [200, '4.5'], [428, 'mmol/L'], [492, '3.5-5.2']],
      [[36, 'Thyroid Peroxidase (TPO)'], [200, '12'], [428, 'IU/mL'], [492, '0-34']],
    ]),
    [215, [[36, 'Ab']]],
    ...table(230, [
      [[36, 'eGFR'], [200, '>59'], [428, 'mL/min/1.73'], [492, '>59']],
      [[36, 'Urinalysis, Routine']],
      [[36, 'Nitrite, Urine'], [200, 'Positive Abnormal'], [492, 'Negative']],
      [[36, 'Hemoglobin A1c']],
      [[36, 'Hemoglobin A1c'], [200, '5.8 H'], [428, '%'], [492, '4.8-5.6']],
    ]),
    [758, [[36, 'Date Issued: 01/16/2024'], [270, 'Final Report'], [520, 'Page 1 of 1']]],
  ]);
  const read = readTables([rows]);

  it('reads every result with value, flag, units, range and panel, ignoring the previous result', () => {
    expect(read.headerFound).toBe(true);
    expect(read.results.map(brief)).toEqual([
      ['Glucose', '101', 'High', 'mg/dL', '70-99', 'Comp. Metabolic Panel (14)'],
      ['Potassium', '4.5', '', 'mmol/L', '3.5-5.2', 'Comp. Metabolic Panel (14)'],
      ['Thyroid Peroxidase (TPO) Ab', '12', '', 'IU/mL', '0-34', 'Comp. Metabolic Panel (14)'],
      ['eGFR', '>59', '', 'mL/min/1.73', '>59', 'Comp. Metabolic Panel (14)'],
      ['Nitrite, Urine', 'Positive', 'Abnormal', '', 'Negative', 'Urinalysis, Routine'],
      ['Hemoglobin A1c', '5.8', 'H', '%', '4.8-5.6', 'Hemoglobin A1c'],
    ]);
    expect(read.unreadRows).toBe(0);
  });

  it('leaves letterhead and footer to the metadata reader', () => {
    const { metadata, missing } = extractMetadata(read.otherRows);
    expect(metadata).toEqual({
      patient_first_name: 'JANE',
      patient_last_name: 'DOE',
      dob: '03/14/1979',
      lab_name: 'Northwind Clinical Laboratories',
      date_collected: '01/15/2024 0830',
      date_reported: '01/16/2024 1420',
      specimen_number: '123-456-7890-0',
      gender: 'female',
    });
    expect(missing).toEqual([]);
  });
});

describe('in/out-of-range layout (Test Name | In Range | Out Of Range | Reference Range | Lab)', () => {
  const rows = page([
    [150, [[36, 'Test Name'], [262, 'In Range'], [326, 'Out Of Range'], [404, 'Reference Range'], [548, 'Lab']]],
    ...table(170, [
      [[36, 'CBC (INCLUDES DIFF/PLT)']],
      [[36, 'WHITE BLOOD CELL COUNT'], [262, '6.8'], [404, '3.8-10.8 Thousand/uL'], [548, 'EN']],
      [[36, 'HEMOGLOBIN'], [326, '15.7 H'], [404, '11.7-15.5 g/dL'], [548, 'EN']],
      [[36, 'NEUTROPHILS'], [262, '58.1'], [404, '%'], [548, 'EN']],
      [[36, 'ABSOLUTE NEUTROPHILS'], [262, '3951'], [404, '1500-7800 cells/uL'], [548, 'EN']],
      [[36, 'LIPID PANEL, STANDARD']],
      [[36, 'HDL CHOLESTEROL'], [262, '52'], [404, '> OR = 50 mg/dL'], [548, 'EN']],
      [[36, 'LDL-CHOLESTEROL'], [326, '131 H'], [404, '<100 mg/dL (calc)'], [548, 'EN']],
      [[36, 'HEPATITIS C ANTIBODY'], [262, 'NON-REACTIVE'], [404, 'NON-REACTIVE'], [548, 'EN']],
    ]),
  ]);
  const read = readTables([rows]);

  it('takes the value from whichever column holds it and the units from after the range', () => {
    expect(read.results.map(brief)).toEqual([
      ['WHITE BLOOD CELL COUNT', '6.8', '', 'Thousand/uL', '3.8-10.8', 'CBC (INCLUDES DIFF/PLT)'],
      ['HEMOGLOBIN', '15.7', 'H', 'g/dL', '11.7-15.5', 'CBC (INCLUDES DIFF/PLT)'],
      ['NEUTROPHILS', '58.1', '', '%', '', 'CBC (INCLUDES DIFF/PLT)'],
      ['ABSOLUTE NEUTROPHILS', '3951', '', 'cells/uL', '1500-7800', 'CBC (INCLUDES DIFF/PLT)'],
      ['HDL CHOLESTEROL', '52', '', 'mg/dL', '> OR = 50', 'LIPID PANEL, STANDARD'],
      ['LDL-CHOLESTEROL', '131', 'H', 'mg/dL', '<100', 'LIPID PANEL, STANDARD'],
      ['HEPATITIS C ANTIBODY', 'NON-REACTIVE', '', '', 'NON-REACTIVE', 'LIPID PANEL, STANDARD'],
    ]);
    expect(read.results.map((r) => r.column)).toEqual(['inRange', 'outRange', 'inRange', 'inRange', 'inRange', 'outRange', 'inRange']);
  });
});

describe('generic layout (Test | Result | Flag | Units | Reference Range)', () => {
  it('reads a separate flag column', () => {
    const read = readTables([page([
      [150, [[36, 'Test'], [200, 'Result'], [262, 'Flag'], [298, 'Units'], [392, 'Reference Range']]],
      ...table(170, [
        [[36, 'Potassium'], [200, '6.6'], [262, 'HH'], [298, 'mmol/L'], [392, '3.5 - 5.1']],
        [[36, 'Sodium'], [200, '140'], [298, 'mmol/L'], [392, '136 - 145']],
        [[36, 'HDL Cholesterol'], [200, '38'], [262, 'L'], [298, 'mg/dL'], [392, '>40']],
      ]),
    ])]);
    expect(read.results.map(brief)).toEqual([
      ['Potassium', '6.6', 'HH', 'mmol/L', '3.5 - 5.1', ''],
      ['Sodium', '140', '', 'mmol/L', '136 - 145', ''],
      ['HDL Cholesterol', '38', 'L', 'mg/dL', '>40', ''],
    ]);
  });

  it('reads flags glued to or printed before the value, and wrapped names', () => {
    const read = readTables([page([
      [150, [[36, 'Test'], [200, 'Result'], [286, 'Units'], [384, 'Reference Range']]],
      [170, [[36, 'Glucose, Fasting'], [200, '112H'], [286, 'mg/dL'], [384, '70 - 99']]],
      [182, [[36, 'Total Protein'], [200, 'L 5.8'], [286, 'g/dL'], [384, '6.0 - 8.3']]],
      [194, [[36, 'Estimated Glomerular Filtration'], [200, '58L'], [286, 'mL/min/1.73m2'], [384, '>=60']]],
      [204.5, [[36, 'Rate']]],
      [217, [[36, 'Cholesterol, Total'], [200, '<100'], [286, 'mg/dL'], [384, '<200']]],
    ])]);
    expect(read.results.map(brief)).toEqual([
      ['Glucose, Fasting', '112', 'H', 'mg/dL', '70 - 99', ''],
      ['Total Protein', '5.8', 'L', 'g/dL', '6.0 - 8.3', ''],
      ['Estimated Glomerular Filtration Rate', '58', 'L', 'mL/min/1.73m2', '>=60', ''],
      ['Cholesterol, Total', '<100', '', 'mg/dL', '<200', ''],
    ]);
  });
});

describe('multi-page reports', () => {
  const letterhead: Line[] = [
    [40, [[36, 'Summit Reference Laboratory']]],
    [70, [[36, 'Patient: Jane A. Doe   Accession #: A24-1234567']]],
    [150, [[36, 'Test'], [200, 'Result'], [286, 'Units'], [384, 'Reference Range']]],
  ];
  const footer = (n: number): Line => [758, [[36, `Summit Reference Laboratory | CLIA 14D0000000 | Page ${n}/2`]]];
  const p1 = page([...letterhead, ...table(170, [
    [[36, 'Lipid Panel']],
    [[36, 'Triglycerides'], [200, '120'], [286, 'mg/dL'], [384, '<150']],
  ]), footer(1)], 1);
  const p2 = page([...letterhead, ...table(170, [
    [[36, 'HDL Cholesterol'], [200, '55'], [286, 'mg/dL'], [384, '>40']],
  ]), footer(2)], 2);

  it('reads results across pages and never mistakes repeated headers or footers for results', () => {
    const read = readTables([p1, p2]);
    expect(read.results.map(brief)).toEqual([
      ['Triglycerides', '120', '', 'mg/dL', '<150', 'Lipid Panel'],
      ['HDL Cholesterol', '55', '', 'mg/dL', '>40', 'Lipid Panel'],
    ]);
    expect(read.unreadRows).toBe(0);
  });

  it('continues a table on a page that does not repeat the header', () => {
    const bare = page([...table(60, [[[36, 'HDL Cholesterol'], [200, '55'], [286, 'mg/dL'], [384, '>40']]])], 2);
    expect(readTables([p1, bare]).results.map((r) => r.testName)).toEqual(['Triglycerides', 'HDL Cholesterol']);
  });

  it('drops a "(cont.)" marker from a panel repeated on the next page', () => {
    const p2cont = page([...letterhead, ...table(170, [
      [[36, 'Lipid Panel (cont.)']],
      [[36, 'HDL Cholesterol'], [200, '55'], [286, 'mg/dL'], [384, '>40']],
    ])], 2);
    expect(readTables([p1, p2cont]).results[1]!.panel).toBe('Lipid Panel');
  });
});

describe('reports without a recognisable table header', () => {
  it('guesses columns from the cells and marks every result', () => {
    const read = readTables([page([
      [100, [[36, 'Glucose'], [200, '95'], [286, 'mg/dL'], [384, '70-99']]],
      [112, [[36, 'Patient: Jane Doe'], [200, 'DOB: 01/02/1980']]],
    ])]);
    expect(read.headerFound).toBe(false);
    expect(read.results.map(brief)).toEqual([['Glucose', '95', '', 'mg/dL', '70-99', '']]);
    expect(read.results[0]!.problems.map((p) => p.code)).toEqual(['layout_unknown']);
  });
});

describe('no header: a name OCR split into cells', () => {
  it('runs the name up to the value, and takes no "ref:" for a unit', () => {
    const read = readTables([page([[100, [[40, 'Estimated'], [100, 'Glomerular'], [170, 'Filtration Rate'], [300, '>60'], [350, 'ref:'], [380, '>=60'], [430, 'mL/min/1.73m2']]]], 1, { confidence: 90 })]);
    expect(read.results.map((r) => [r.testName, r.value.value, r.rangeText, r.units])).toEqual([['Estimated Glomerular Filtration Rate', '>60', '>=60', 'mL/min/1.73m2']]);
  });

  it('a name that ends in its percent or count sign is no leader line', () => {
    const read = readTables([page([
      [100, [[40, 'Neutrophils %'], [200, '62'], [260, '40-75']]],
      [114, [[40, 'Iron Saturation %'], [200, '28'], [260, '20-50']]],
    ], 1, { confidence: 90 })]);
    expect(read.results.map((r) => [r.testName, r.value.value, r.rangeText])).toEqual([['Neutrophils %', '62', '40-75'], ['Iron Saturation %', '28', '20-50']]);
  });

  it("a name's own lower-case words are no dots OCR made of a leader", () => {
    const read = readTables([page([[100, [[40, 'Transferrin'], [100, 'saturation'], [200, '28'], [240, '%'], [260, '20-50']]]], 1, { confidence: 90 })]);
    expect(read.results.map((r) => [r.testName, r.value.value, r.rangeText])).toEqual([['Transferrin saturation', '28', '20-50']]);
  });
});

describe('hospital printouts: critical-value calls and page furniture', () => {
  const header: Line = [150, [[36, 'TEST'], [200, 'RESULT'], [270, 'FLAG'], [320, 'UNITS'], [400, 'REF RANGE']]];
  const rows = page([
    header,
    ...table(170, [
      [[36, 'POTASSIUM'], [200, '6.9'], [270, 'HH'], [320, 'mmol/L'], [400, '3.5-5.1']],
      [[36, 'CRITICAL VALUE CALLED TO J SMITH RN BY PQT AT 1111 ON 12/22/2024, READ BACK']],
      [[36, 'GLUCOSE'], [200, '45'], [320, 'mg/dL'], [400, '70-99']],
      [[36, 'Critical result notified to Dr Ruiz at 0940, read back']],
      [[36, 'SODIUM'], [200, '140'], [320, 'mmol/L'], [400, '136-145']],
      [[36, 'Report continues on next page']],
    ]),
  ]);
  const read = readTables([rows]);

  it('makes the result above a critical-value call critical, and counts neither the call nor "continues on next page" as an unread row', () => {
    expect(read.results.map((r) => [r.testName, r.value.value, r.criticalCalled ?? false])).toEqual([
      ['POTASSIUM', '6.9', true],
      ['GLUCOSE', '45', true],
      ['SODIUM', '140', false],
    ]);
    expect(read.unreadRows).toBe(0);
    expect(read.results.map((r) => interpret(r).result.interpretation)).toEqual(['critical', 'critical', 'normal']);
  });
});

describe('headers in other words', () => {
  const values = (rows: ReturnType<typeof page>) => readTables([rows]).results.map((r) => [r.testName, r.value.value, r.rangeText ?? '']);

  it('"Investigation | Result | Ref. interval | Units" (a UK report)', () => {
    const read = readTables([page([
      [100, [[40, 'Investigation'], [230, 'Result'], [310, 'Ref. interval'], [420, 'Units']]],
      ...table(115, [[[40, 'Sodium'], [230, '135 L'], [310, '136 - 145'], [420, 'mmol/L']]]),
    ])]);
    expect(read.headerFound).toBe(true);
    expect(read.results.map(brief)).toEqual([['Sodium', '135', 'L', 'mmol/L', '136 - 145', '']]);
  });

  it('a header under shading, with the specks OCR read in it', () => {
    const read = readTables([page([
      [100, [[40, 'nvestigation.'], [120, 'oo oo co ©'], [230, 'Result'], [270, '0'], [310, 'Ref.imerval'], [390, '0'], [420, 'Units. oo.'], [500, 'oc']]],
      ...table(115, [[[40, 'Potassium'], [230, '5.5H'], [310, '3.5-5.1'], [420, 'mmol/L']]]),
    ], 1, { confidence: 90 })]);
    expect(read.headerFound).toBe(true);
    expect(read.results.map(brief)).toEqual([['Potassium', '5.5', 'H', 'mmol/L', '3.5-5.1', '']]);
  });

  it('"Component | Your Value | Standard Range | Flag" (portal result cards): a card’s dated line, the lab’s CLIA line and "1 of 1" are no rows of the table', () => {
    const rows = page([
      [100, [[40, 'Component'], [230, 'Your Value'], [330, 'Standard Range'], [450, 'Flag']]],
      ...table(115, [
        [[40, 'Potassium'], [230, '5.3 mmol/L'], [330, '3.5 - 5.1 mmol/L'], [450, 'High']],
        [[40, 'Collected on May 1, 2024 9:30 AM'], [330, 'Result date: 5/1/2024 10:46 PM']],
        [[40, 'Sodium'], [230, '140 mmol/L'], [330, '136 - 145 mmol/L']],
        [[40, '01'], [70, 'Pacific Crest Reference Laboratory, 2875 Kilroy Airport Way, Long Beach, CA 90806'], [450, 'CLIA: 05D1043386']],
        [[40, '1 of 1']],
      ]),
    ]);
    expect(values(rows)).toEqual([['Potassium', '5.3', '3.5 - 5.1'], ['Sodium', '140', '136 - 145']]);
    expect(readTables([rows]).unreadRows).toBe(0);
  });
});

describe('two tables side by side under one header', () => {
  const rows = page([
    [120, [[26, 'Test'], [130, 'Result'], [166, 'Flag'], [182, 'Units'], [238, 'Ref Range'], [312, 'Test'], [416, 'Result'], [452, 'Flag'], [468, 'Units'], [524, 'Ref Range']]],
    ...table(134, [
      [[26, 'Comp. Metabolic Panel (14)'], [312, 'CBC With Differential/Platelet (cont.)']],
      [[26, 'Glucose'], [130, '91'], [182, 'mg/dL'], [238, '70-99'], [312, 'Lymphs'], [416, '28'], [468, '%'], [524, 'Not Estab.']],
      [[26, 'BUN/Creatinine Ratio'], [130, '20'], [238, '9-23'], [312, 'Neutrophils (Absolute)'], [416, '3.2'], [468, 'x10E3/uL'], [524, '1.4-7.0']],
      [[26, 'Carbon Dioxide, Total'], [130, '19'], [166, 'L'], [182, 'mmol/L'], [238, '20-29'], [312, 'Ferritin'], [416, '168'], [452, 'H'], [468, 'ng/mL'], [524, '15-150']],
    ]),
  ]);
  const read = readTables([rows]);

  it('reads the left table to the bottom, then the right one, each value with its own row', () => {
    expect(read.results.map(brief)).toEqual([
      ['Glucose', '91', '', 'mg/dL', '70-99', 'Comp. Metabolic Panel (14)'],
      ['BUN/Creatinine Ratio', '20', '', '', '9-23', 'Comp. Metabolic Panel (14)'],
      ['Carbon Dioxide, Total', '19', 'L', 'mmol/L', '20-29', 'Comp. Metabolic Panel (14)'],
      ['Lymphs', '28', '', '%', 'Not Estab.', 'CBC With Differential/Platelet'],
      ['Neutrophils (Absolute)', '3.2', '', 'x10E3/uL', '1.4-7.0', 'CBC With Differential/Platelet'],
      ['Ferritin', '168', 'H', 'ng/mL', '15-150', 'CBC With Differential/Platelet'],
    ]);
    expect(read.unreadRows).toBe(0);
  });
});

describe('range in two columns (Test | Result | Flag | Units | Ref Low | Ref High | Status)', () => {
  const rows = page([
    [150, [[40, 'Test'], [226, 'Result'], [282, 'Flag'], [310, 'Units'], [392, 'Ref Low'], [444, 'Ref High'], [504, 'Status']]],
    ...table(170, [
      [[48, 'Glucose, Fasting'], [226, '97'], [310, 'mg/dL'], [392, '70'], [444, '99'], [504, 'Final']],
      [[48, 'Estimated Glomerular Filtration Rate'], [226, '49'], [282, 'L'], [310, 'mL/min/1.73m2'], [392, '60'], [504, 'Final']],
      [[48, 'Triglycerides'], [226, '89'], [310, 'mg/dL'], [444, '150'], [504, 'Corrected']],
      [[48, 'Creatinine [1]'], [226, '0.74'], [310, 'mg/dL'], [392, '0.60'], [444, '1.20'], [504, 'Final']],
      [[48, 'Vitamin B12 a'], [226, '909'], [310, 'pg/mL'], [392, '211'], [444, '911'], [504, 'Final']],
      [[48, 'Lipoprotein (a)'], [226, '12'], [310, 'mg/dL'], [444, '30'], [504, 'Final']],
    ]),
  ]);
  const read = readTables([rows]);

  it('joins the low and high bounds into the range, one bound alone being a limit the result may reach', () => {
    expect(read.results.map(brief)).toEqual([
      ['Glucose, Fasting', '97', '', 'mg/dL', '70-99', ''],
      ['Estimated Glomerular Filtration Rate', '49', 'L', 'mL/min/1.73m2', '>=60', ''],
      ['Triglycerides', '89', '', 'mg/dL', '<=150', ''],
      ['Creatinine', '0.74', '', 'mg/dL', '0.60-1.20', ''],
      ['Vitamin B12', '909', '', 'pg/mL', '211-911', ''],
      ['Lipoprotein (a)', '12', '', 'mg/dL', '<=30', ''],
    ]);
  });

  it('takes "Final" and "Corrected" in the status column for no flag, and asks nothing of them', () => {
    expect(read.results.flatMap((r) => r.problems)).toEqual([]);
  });
});

describe("an analyser's printout (TEST | RESULT | UNITS | RANGE) with histograms and a legend under it", () => {
  const rows = page([
    [150, [[12, 'TEST'], [46, 'RESULT'], [88, 'UNITS'], [125, 'RANGE']]],
    ...table(162, [
      [[12, 'NA+'], [58, '145'], [88, 'mmol/L'], [125, '136-145']],
      [[12, 'NEU%'], [62, '63'], [88, '%'], [125, '40-74']],
      [[12, 'EOS#'], [58, '0.3'], [88, '10^3/uL'], [125, '0.0-0.5']],
      [[12, 'H/L = outside range'], [104, 'HH/LL = critical']],
      [[12, 'RBC']],
      [[12, '0'], [80, '100'], [147, '200'], [193, '300 fL']],
      [[12, 'Reviewed by:'], [60, '___________________________']],
      [[12, '*** END OF REPORT ***']],
      [[12, 'Software 4.5.35']],
    ]),
  ]);
  const read = readTables([rows]);

  it('reads the abbreviations analysers print, and no axis of a histogram as a result', () => {
    expect(read.results.map((r) => [r.testName, r.value.value, r.units])).toEqual([
      ['NA+', '145', 'mmol/L'],
      ['NEU%', '63', '%'],
      ['EOS#', '0.3', '10^3/uL'],
    ]);
  });

  it('counts no legend, form line, axis or version line as a row it could not read', () => {
    expect(read.unreadRows).toBe(0);
  });
});

describe('signs as flags', () => {
  const rows = (header: [number, string][], body: [number, string][][]) => page([[150, header], ...table(162, body)]);

  it('reads "+" and "--" beside the value as high and critically low in a German table only', () => {
    const german = readTables([rows([[52, 'Untersuchung'], [220, 'Ergebnis'], [286, 'Einheit'], [352, 'Referenzbereich']], [[[58, 'Kalium'], [244, '2.9'], [268, '--'], [286, 'mmol/l'], [352, '3.5 - 5.1']]])]);
    expect(german.results.map((r) => [r.value.value, r.flag])).toEqual([['2.9', '--']]);
    const english = readTables([rows([[52, 'Test'], [220, 'Result'], [286, 'Units'], [352, 'Range']], [[[58, 'Protein, Urine'], [244, '1'], [252, '+'], [286, 'mg/dL'], [352, '0-14']]])]);
    expect(english.results.map((r) => r.flag)).toEqual([undefined]);
  });

  it('takes a dash in a flag column for "no flag"', () => {
    const read = readTables([rows([[52, 'Test'], [220, 'Result'], [260, 'Flag'], [286, 'Units'], [352, 'Range']], [[[58, 'Sodium'], [220, '140'], [262, '-'], [286, 'mmol/L'], [352, '136-145']]])]);
    expect(read.results.map((r) => [r.flag, r.problems])).toEqual([[undefined, []]]);
  });

  it('keeps "#" on a CBC absolute count, and counts a row of words whose name was lost as unread', () => {
    const read = readTables([
      rows([[40, 'Test'], [226, 'Result'], [310, 'Units'], [392, 'Range']], [
        [[48, 'Neuts #'], [226, '4.2'], [310, 'K/uL'], [392, '1.4-7.0']],
        [[48, 'Hcpatltls B sAg'], [226, 'Reactlve'], [392, 'Negative']],
      ]),
    ]);
    expect(read.results.map((r) => r.testName)).toEqual(['Neuts #']);
    expect(read.unreadRows).toBe(1);
  });
});

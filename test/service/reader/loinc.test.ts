import { describe, expect, it } from 'vitest';
import { matchLoinc, normalizeName } from '../../../server/service/reader/loinc';
import { ANALYTES } from '../../../server/service/reader/loincTable';

const code = (name: string, ctx = {}) => matchLoinc(name, ctx).matches[0]?.loinc_code;

describe('the LOINC table', () => {
  it('holds about a hundred analytes with well-formed, unique codes', () => {
    expect(ANALYTES.length).toBeGreaterThanOrEqual(100);
    const codes = ANALYTES.map((a) => a.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const a of ANALYTES) {
      expect(a.code).toMatch(/^\d{1,6}-\d$/);
      // LOINC's mod-10 check digit.
      const [body, check] = a.code.split('-') as [string, string];
      expect(mod10(body), a.code).toBe(Number(check));
      expect(a.aliases).toContain(a.display);
      for (const spec of a.units) if (spec.plausible) expect(spec.plausible[0]).toBeLessThan(spec.plausible[1]);
      for (const spec of a.units) if (spec.loinc) expect(mod10(spec.loinc.code.split('-')[0]!), spec.loinc.code).toBe(Number(spec.loinc.code.split('-')[1]));
    }
  });
});

describe('SI units', () => {
  it.each([
    ['Glucose', 'mmol/L', '15074-8', 'Glucose [Moles/volume] in Serum or Plasma'],
    ['Glucose', 'mg/dL', '2345-7', 'Glucose [Mass/volume] in Serum or Plasma'],
    ['Creatinine', 'umol/L', '14682-9', 'Creatinine [Moles/volume] in Serum or Plasma'],
    ['Cholesterol', 'mmol/L', '14647-2', 'Cholesterol [Moles/volume] in Serum or Plasma'],
    ['HbA1c', 'mmol/mol', '59261-8', 'Hemoglobin A1c/Hemoglobin.total in Blood by IFCC protocol'],
    ['HbA1c', '%', '4548-4', 'Hemoglobin A1c/Hemoglobin.total in Blood'],
    ['Urea', 'mmol/L', '22664-7', 'Urea [Moles/volume] in Serum or Plasma'],
    ['Haemoglobin', 'g/L', '718-7', 'Hemoglobin [Mass/volume] in Blood'],
    ['Haematocrit', 'L/L', '4544-3', 'Hematocrit [Volume Fraction] of Blood by Automated count'],
    ['White cell count', 'x10^9/L', '6690-2', 'Leukocytes [#/volume] in Blood by Automated count'],
  ])('%s in %s is %s', (name, units, expected, longName) => {
    const m = matchLoinc(name, { units, panel: 'Biochemistry' });
    expect(m.matches[0]?.loinc_code).toBe(expected);
    expect(m.matches[0]?.loinc_name).toBe(longName);
  });
});

/** LOINC's check digit: double every other digit from the right, add all digits, 10 minus the last digit. */
function mod10(body: string): number {
  let sum = 0;
  body.split('').reverse().map(Number).forEach((d, i) => {
    const v = i % 2 === 0 ? d * 2 : d;
    sum += v > 9 ? v - 9 : v;
  });
  return (10 - (sum % 10)) % 10;
}

describe('matching printed names', () => {
  it.each([
    ['ALT (SGPT)', '1742-6'],
    ['Alanine aminotransferase', '1742-6'],
    ['SGPT', '1742-6'],
    ['AST (SGOT)', '1920-8'],
    ['UREA NITROGEN (BUN)', '3094-0'],
    ['Glucose, Serum', '2345-7'],
    ['eGFR', '98979-8'],
    ['Hemoglobin A1c', '4548-4'],
    ['HbA1c', '4548-4'],
    ['LDL Chol Calc (NIH)', '13457-7'],
    ['TSH', '3016-3'],
    ['T4, FREE', '3024-7'],
    ['Vitamin D, 25-Hydroxy', '62292-8'],
    ['Iron Bind.Cap.(TIBC)', '2500-7'],
    ['HIV 1/2 ANTIGEN/ANTIBODY, FOURTH GENERATION W/RFL', '56888-1'],
    ['Glucose 01', '2345-7'],
  ])('%s -> %s', (name, expected) => {
    // Glucose alone is serum or urine: the chemistry panel around it decides.
    const m = matchLoinc(name, name.startsWith('Glucose') ? { units: 'mg/dL', panel: 'Comp. Metabolic Panel (14)' } : {});
    expect(m.matches[0]?.loinc_code).toBe(expected);
    expect(m.ambiguous).toBe(false);
    expect(m.matches[0]!.confidence_score).toBeGreaterThanOrEqual(0.9);
  });

  it('scores an exact alias higher than a fuzzy match, and reports every match with names and aliases', () => {
    const exact = matchLoinc('Potassium');
    const fuzzy = matchLoinc('Potasslum');
    expect(exact.method).toBe('exact');
    expect(exact.matches[0]).toMatchObject({ loinc_code: '2823-3', loinc_name: 'Potassium [Moles/volume] in Serum or Plasma', display_name: 'Potassium', confidence_score: 0.99 });
    expect(exact.matches[0]!.aliases).toContain('K');
    expect(fuzzy.method).toBe('fuzzy');
    expect(fuzzy.matches[0]!.loinc_code).toBe('2823-3');
    expect(fuzzy.matches[0]!.confidence_score).toBeLessThan(0.9);
  });

  it('lets the unit decide between analytes sharing a name', () => {
    expect(code('Neutrophils', { units: '%' })).toBe('770-8');
    expect(code('Neutrophils', { units: 'x10E3/uL' })).toBe('751-8');
    expect(code('Neutrophils', { units: 'cells/uL' })).toBe('751-8');
    expect(code('Lipoprotein (a)', { units: 'mg/dL' })).toBe('10835-7');
    expect(code('Lipoprotein (a)', { units: 'nmol/L' })).toBe('43583-4');
    expect(code('WBC', { units: '/hpf' })).toBe('5821-4');
    expect(code('WBC', { units: 'Thousand/uL' })).toBe('6690-2');
    expect(matchLoinc('Neutrophils', { units: '%' }).matches[0]!.confidence_score).toBe(0.95);
  });

  it('lets the panel decide when the unit cannot (urine dipstick vs serum)', () => {
    expect(code('Glucose', { panel: 'Urinalysis, Routine' })).toBe('5792-7');
    expect(code('Glucose', { panel: 'Comp. Metabolic Panel (14)', units: 'mg/dL' })).toBe('2345-7');
    expect(code('Bilirubin', { panel: 'URINALYSIS, COMPLETE' })).toBe('5770-3');
  });

  it('lets a word result overrule a blood panel: serum protein is never "NEGATIVE" (a misread urinalysis heading)', () => {
    expect(code('PROTEIN', { panel: 'COMPREHENSIVE METABOLIC PANEL', qualitativeValue: true })).toBe('5804-0');
    expect(code('PROTEIN', { panel: 'COMPREHENSIVE METABOLIC PANEL', qualitativeValue: false, units: 'g/dL' })).toBe('2885-2');
  });

  it('reports ambiguity instead of guessing', () => {
    expect(matchLoinc('Glucose', { units: 'mg/dL' }).ambiguous).toBe(true);
    const m = matchLoinc('Neutrophils');
    expect(m.ambiguous).toBe(true);
    expect(m.analyte).toBeUndefined();
    expect(m.matches.map((x) => x.loinc_code).sort()).toEqual(['751-8', '770-8']);
    expect(m.matches.every((x) => x.confidence_score === 0.5)).toBe(true);
  });

  it('matches nothing rather than something far-fetched', () => {
    expect(matchLoinc('Patient Name').matches).toEqual([]);
    expect(matchLoinc('Zz').matches).toEqual([]);
    expect(matchLoinc('Immature Granulocytes').matches).toEqual([]);
  });

  it('takes a unit OCR garbled by look-alike letters for the analyte\'s own, as a guess', () => {
    const guessed = (name: string, units: string) => {
      const r = matchLoinc(name, { units, ocr: true });
      return r.unitGuessedFrom === units ? r.unitCorrected : undefined;
    };
    // A slash read as a stroke or dropped, an L read as t or i, a g read as a.
    expect(guessed('Neut #', 'Kut')).toBe('K/uL');
    expect(guessed('Lymph #', 'Kiut')).toBe('K/uL');
    expect(guessed('T Prot', 'gidi')).toBe('g/dL');
    expect(guessed('Creatinine', 'mafdL')).toBe('mg/dL');
    expect(guessed('Calcium', 'ma /dL')).toBe('mg/dL');
    expect(guessed('Chloride', 'mmol FL')).toBe('mmol/L');
    expect(guessed('eGFR', 'mbL/min/1.73m?2')).toBe('mL/min/1.73m2');
    // Not from text, never a unit labs print, not a two-letter unit, not when two specs are as near.
    expect(matchLoinc('Neut #', { units: 'Kut' }).unitCorrected).toBeUndefined();
    expect(matchLoinc('Creatinine', { units: 'umol/L', ocr: true }).unitGuessedFrom).toBeUndefined();
    expect(matchLoinc('Alkaline Phosphatase', { units: 'Un', ocr: true }).unitCorrected).toBeUndefined();
    expect(matchLoinc('Free T4', { units: 'ng/mLL', ocr: true }).unitCorrected).toBeUndefined();
    expect(matchLoinc('Potassium', { units: 'xyz', ocr: true }).unitCorrected).toBeUndefined();
  });

  it('corrects units OCR misread into one of the analyte\'s own units', () => {
    expect(matchLoinc('TSH', { units: 'ulU/mL', ocr: true })).toMatchObject({ unitCorrected: 'uIU/mL' });
    expect(matchLoinc('TSH', { units: 'ulU/mL' }).unitCorrected).toBeUndefined();
    // A doubled letter or a speck beside a unit is OCR's; a unit labs print is never "corrected".
    expect(matchLoinc('Neutrophils (Absolute)', { units: 'Xx10E3/uL', ocr: true }).unitCorrected).toBe('x10E3/uL');
    expect(matchLoinc('RBC', { units: 'x10E6/ulL', ocr: true }).unitCorrected).toBe('x10E6/uL');
    expect(matchLoinc('Glucose', { units: 'mg/dL.', ocr: true, panel: 'Comprehensive Metabolic Panel' }).unitSpec?.units[0]).toBe('mg/dL');
    expect(matchLoinc('Hepatitis B Surface Antibody, Quant', { units: 'IU/mL', ocr: true }).unitCorrected).toBeUndefined();
    expect(matchLoinc('Free T4', { units: 'ng/mLL', ocr: true }).unitCorrected).toBeUndefined();
    // The caret of a power of ten, read as a 7.
    expect(matchLoinc('White Cell Count', { units: 'x1079/L', ocr: true }).unitCorrected).toBe('x10^9/L');
    expect(matchLoinc('Red Cell Count', { units: 'x10712/L', ocr: true }).unitCorrected).toBe('x10^12/L');
    // A bracket for an I; a made-up letter inside a long unit.
    expect(matchLoinc('Thyroid Peroxidase Antibodies', { units: '[U/mL', ocr: true }).unitCorrected).toBe('IU/mL');
    expect(matchLoinc('eGFR', { units: 'mbL/min/1.73m2', ocr: true }).unitCorrected).toBe('mL/min/1.73m2');
    expect(matchLoinc('HDL Cholesterol', { units: 'wg/dL', ocr: true }).unitCorrected).toBe('mg/dL');
    // A blurred percent sign with a speck beside it, for a test reported in percent only.
    expect(matchLoinc('Hematocrit', { units: '9%', ocr: true }).unitCorrected).toBe('%');
    expect(matchLoinc('RDW', { units: '%)', ocr: true }).unitCorrected).toBe('%');
    expect(matchLoinc('Glucose, Fasting', { units: '9%', ocr: true }).unitCorrected).toBeUndefined();
    // A slash read as a letter.
    expect(matchLoinc('Cholesterol, Total', { units: 'mgidL', ocr: true }).unitCorrected).toBe('mg/dL');
    expect(matchLoinc('MCHC', { units: 'gfdL', ocr: true }).unitCorrected).toBe('g/dL');
    expect(matchLoinc('Eosinophils, Absolute', { units: 'KfuL', ocr: true }).unitCorrected).toBe('K/uL');
    expect(matchLoinc('Cholesterol, Total', { units: 'mgidL' }).unitCorrected).toBeUndefined();
    // Only into the analyte's own unit: glucose is not in g/L because "gfL" could be one.
    expect(matchLoinc('Glucose', { units: 'gfL', ocr: true }).unitCorrected).toBeUndefined();
  });

  it('normalises names the way labs vary them', () => {
    expect(normalizeName('Neutrophils (%)')).toBe(normalizeName('Neutrophils %'));
    expect(normalizeName('A/G Ratio')).toBe('a g ratio');
  });
});

describe('serology and infection tests', () => {
  it('matches titers, quantitative antibodies and NAA tests by their printed names', () => {
    const code = (name: string, units?: string, qualitativeValue?: boolean) => matchLoinc(name, { units, qualitativeValue }).matches[0]?.loinc_code;
    expect(code('ANA Titer')).toBe('5048-4');
    expect(code('ANA Screen, IFA', undefined, true)).toBe('8061-4');
    expect(code('RPR Titer')).toBe('31147-2');
    expect(code('Hepatitis B Surface Antibody, Quant', 'mIU/mL')).toBe('16935-9');
    expect(code('SARS-CoV-2 RNA, NAA', undefined, true)).toBe('94500-6');
    expect(code('Chlamydia trachomatis RNA, TMA', undefined, true)).toBe('43304-5');
    expect(code('Neisseria gonorrhoeae RNA, TMA', undefined, true)).toBe('43305-2');
    expect(code('Procalcitonin', 'ng/mL')).toBe('33959-8');
    expect(code('Rheumatoid Factor', 'IU/mL')).toBe('11572-5');
  });
});

describe("OCR's look-alikes in names and units", () => {
  it('reads an l taken for a 1 or an o for a 0 in a name back, on a scan only', () => {
    expect(matchLoinc('HbAlc', { ocr: true }).matches[0]?.loinc_code).toBe('4548-4');
    expect(matchLoinc('C02', { ocr: true }).matches[0]?.loinc_code).toBe('2028-9');
    expect(matchLoinc('HbAlc').matches.map((m) => m.loinc_code)).not.toContain('4548-4');
  });

  it('reads the µ of µIU taken for a p, a caret taken for a quote or a degree sign, and a leading slash taken for an I', () => {
    expect(matchLoinc('TSH basal', { units: 'piu/mi', ocr: true }).unitCorrected).toBe('uIU/mL');
    expect(matchLoinc('Free T4', { units: 'pmol/L', ocr: true }).unitCorrected).toBeUndefined();
    expect(matchLoinc('WBC', { units: 'x10°9/L', ocr: true }).unitCorrected).toBe('x10^9/L');
    expect(matchLoinc('WBC', { units: 'x10"9/L', ocr: true }).unitCorrected).toBe('x10^9/L');
    expect(matchLoinc('Leukozyten', { units: 'Inl', ocr: true }).unitCorrected).toBe('/nl');
  });
});

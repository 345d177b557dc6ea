import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalUnit, knowsAnalyte, normaliseValue, toUcum } from './units';

const GLUCOSE = '2345-7';
const HBA1C = '4548-4';
const INSULIN = '20448-7';
const TSH = '3016-3';
const CHOLESTEROL = '2093-3';
const TRIGLYCERIDES = '2571-8';
const CREATININE = '2160-0';
const BUN = '3094-0';
const TESTOSTERONE = '2986-8';
const VITAMIN_D = '62292-8';
const CALCIUM = '17861-6';
const SODIUM = '2951-2';
const HEMOGLOBIN = '718-7';
const HEMATOCRIT = '4544-3';
const WBC = '6690-2';
const RBC = '789-8';
const ALT = '1742-6';
const EGFR = '98979-8';
const LPA = '10835-7';
const BUN_CREATININE = '3097-3';

/** The value normaliseValue gives, failing the test when it gives none. */
function normalised(loinc: string, value: number, unit: string | null): { value: number; unit: string } {
  const result = normaliseValue(loinc, value, unit);
  expect(result, `${loinc} ${value} ${unit}`).not.toBeNull();
  return result!;
}

describe('toUcum', () => {
  it.each([
    ['mg/dL', 'mg/dL'],
    ['mg/dl', 'mg/dL'],
    ['MG/DL', 'mg/dL'],
    ['mmol/L', 'mmol/L'],
    ['mmol/l', 'mmol/L'],
    ['umol/L', 'umol/L'],
    ['µmol/L', 'umol/L'], // U+00B5 micro sign
    ['μmol/L', 'umol/L'], // U+03BC Greek mu
    ['10*3/uL', '10*3/uL'],
    ['x10E3/uL', '10*3/uL'],
    ['K/uL', '10*3/uL'],
    ['K/UL', '10*3/uL'],
    ['10^3/uL', '10*3/uL'],
    ['10³/µL', '10*3/uL'],
    ['thou/uL', '10*3/uL'],
    ['M/uL', '10*6/uL'],
    ['x10E6/uL', '10*6/uL'],
    ['x10^9/L', '10*9/L'],
    ['mIU/L', 'm[IU]/L'],
    ['uIU/mL', 'u[IU]/mL'],
    ['µIU/mL', 'u[IU]/mL'],
    ['IU/L', '[IU]/L'],
    ['mL/min/1.73m2', 'mL/min/{1.73_m2}'],
    ['mL/min/1.73 m²', 'mL/min/{1.73_m2}'],
    ['mL/min/{1.73_m2}', 'mL/min/{1.73_m2}'],
    ['%', '%'],
    ['g/dL', 'g/dL'],
    ['g/L', 'g/L'],
    ['ng/mL', 'ng/mL'],
    ['ng/dL', 'ng/dL'],
    ['pg/mL', 'pg/mL'],
    ['pmol/L', 'pmol/L'],
    ['nmol/L', 'nmol/L'],
    ['U/L', 'U/L'],
    ['mg/L', 'mg/L'],
    ['ug/dL', 'ug/dL'],
    ['mcg/dL', 'ug/dL'],
    ['fL', 'fL'],
    ['pg', 'pg'],
    ['PG', 'pg'], // not the petagauss
    ['mEq/L', 'meq/L'],
    ['µkat/L', 'ukat/L'],
    ['cells/uL', '{cells}/uL'],
    [' mg / dL ', 'mg/dL'],
  ])('%j → %j', (spelling, code) => {
    expect(toUcum(spelling)).toBe(code);
  });

  it.each([['ratio'], ['banana'], ['index'], [''], ['   '], [null], [undefined]])('%j is no unit', (spelling) => {
    expect(toUcum(spelling)).toBeNull();
  });
});

describe('normaliseValue', () => {
  it('converts glucose between mmol/L and mg/dL and keeps a canonical value as it is', () => {
    expect(normalised(GLUCOSE, 5.5, 'mmol/L')).toEqual({ value: 99.09, unit: 'mg/dL' });
    expect(normalised(GLUCOSE, 99, 'mg/dL')).toEqual({ value: 99, unit: 'mg/dL' });
    expect(normalised(GLUCOSE, 99, 'mg/dl')).toEqual({ value: 99, unit: 'mg/dL' });
    // Not rounded: no conversion happened.
    expect(normalised(GLUCOSE, 99.12345, 'mg/dL').value).toBe(99.12345);
  });

  it('converts mol to mass with each analyte’s molar mass', () => {
    expect(normalised(CHOLESTEROL, 5.0, 'mmol/L').value).toBeCloseTo(193.3, 1);
    expect(normalised(TRIGLYCERIDES, 1.7, 'mmol/L').value).toBeCloseTo(150.6, 1);
    expect(normalised(CREATININE, 88.4, 'umol/L').value).toBeCloseTo(1.0, 3);
    expect(normalised(CREATININE, 88.4, 'µmol/L').value).toBeCloseTo(1.0, 3);
    expect(normalised(TESTOSTERONE, 20.8, 'nmol/L')).toEqual({ value: expect.closeTo(600, 0) as number, unit: 'ng/dL' });
    expect(normalised(VITAMIN_D, 75, 'nmol/L').value).toBeCloseTo(30, 0);
    expect(normalised(CALCIUM, 2.5, 'mmol/L').value).toBeCloseTo(10.0, 1);
    // Urea in mmol/L → urea nitrogen in mg/dL (×2.802).
    expect(normalised(BUN, 7.1, 'mmol/L').value).toBeCloseTo(19.9, 1);
  });

  it('converts equivalents with the ion’s charge', () => {
    expect(normalised(SODIUM, 140, 'mEq/L')).toEqual({ value: 140, unit: 'mmol/L' });
    // The same scale: not rounded.
    expect(normalised(SODIUM, 140.125, 'mEq/L')).toEqual({ value: 140.125, unit: 'mmol/L' });
    // Calcium is divalent: 5 mEq/L = 2.5 mmol/L.
    expect(normalised(CALCIUM, 5, 'mEq/L').value).toBeCloseTo(10.0, 1);
  });

  it('converts hemoglobin from g/L and from the European mmol/L', () => {
    expect(normalised(HEMOGLOBIN, 140, 'g/L')).toEqual({ value: 14.0, unit: 'g/dL' });
    expect(normalised(HEMOGLOBIN, 8.69, 'mmol/L').value).toBeCloseTo(14.0, 1);
  });

  it('converts cell counts per litre and reads lab spellings of counts per µL', () => {
    expect(normalised(WBC, 6.1, '10*9/L')).toEqual({ value: 6.1, unit: '10*3/uL' });
    expect(normalised(WBC, 6.1, 'K/uL')).toEqual({ value: 6.1, unit: '10*3/uL' });
    expect(normalised(WBC, 6.1, 'x10E3/uL')).toEqual({ value: 6.1, unit: '10*3/uL' });
    expect(normalised(WBC, 6100, 'cells/uL')).toEqual({ value: 6.1, unit: '10*3/uL' });
    expect(normalised(RBC, 4.5, '10*12/L')).toEqual({ value: 4.5, unit: '10*6/uL' });
    expect(normalised(RBC, 4.5, 'M/uL')).toEqual({ value: 4.5, unit: '10*6/uL' });
  });

  it('reads a fraction as a percentage', () => {
    expect(normalised(HEMATOCRIT, 0.42, 'L/L')).toEqual({ value: 42, unit: '%' });
    expect(normalised(HEMATOCRIT, 0.42, '1')).toEqual({ value: 42, unit: '%' });
  });

  it('maps HbA1c from IFCC mmol/mol to NGSP % by the master equation, not as a ratio', () => {
    const a1c = normalised(HBA1C, 48, 'mmol/mol');
    expect(a1c.unit).toBe('%');
    expect(a1c.value).toBeCloseTo(6.5, 1); // UCUM alone would say 4.8
    expect(normalised(HBA1C, 6.5, '%')).toEqual({ value: 6.5, unit: '%' });
  });

  it('converts insulin from pmol/L with 6 pmol/L per µIU/mL and IU scales to each other', () => {
    expect(normalised(INSULIN, 60, 'pmol/L')).toEqual({ value: 10, unit: 'uIU/mL' });
    expect(normalised(INSULIN, 10, 'mIU/L')).toEqual({ value: 10, unit: 'uIU/mL' });
    expect(normalised(INSULIN, 10, 'µIU/mL')).toEqual({ value: 10, unit: 'uIU/mL' });
    expect(normalised(TSH, 2.1, 'uIU/mL')).toEqual({ value: 2.1, unit: 'mIU/L' });
    expect(normalised(TSH, 2.1, 'mU/L')).toEqual({ value: 2.1, unit: 'mIU/L' });
  });

  it('converts enzyme activity from µkat/L and reads IU/L as U/L', () => {
    expect(normalised(ALT, 0.5, 'ukat/L')).toEqual({ value: 30, unit: 'U/L' });
    expect(normalised(ALT, 0.5, 'µkat/L')).toEqual({ value: 30, unit: 'U/L' });
    expect(normalised(ALT, 31, 'IU/L')).toEqual({ value: 31, unit: 'U/L' });
  });

  it('converts eGFR per second to per minute', () => {
    expect(normalised(EGFR, 1.5, 'mL/s/1.73m2')).toEqual({ value: 90, unit: 'mL/min/1.73m2' });
  });

  it('rounds a converted value to 4 significant digits', () => {
    expect(normalised(GLUCOSE, 5.55555, 'mmol/L').value).toBe(100.1);
    expect(normalised(CREATININE, 123.456, 'umol/L').value).toBe(1.397);
  });

  it('returns null when the value cannot be normalised', () => {
    expect(normaliseValue(GLUCOSE, 5, 'mg')).toBeNull(); // a mass, not a concentration
    expect(normaliseValue(GLUCOSE, 5, 'U/L')).toBeNull();
    expect(normaliseValue('0000-0', 5, 'mg/dL')).toBeNull();
    expect(normaliseValue(GLUCOSE, 5, 'banana')).toBeNull();
    expect(normaliseValue(GLUCOSE, 5, null)).toBeNull();
    expect(normaliseValue(GLUCOSE, Number.NaN, 'mg/dL')).toBeNull();
    expect(normaliseValue(GLUCOSE, Number.POSITIVE_INFINITY, 'mmol/L')).toBeNull();
    // Lp(a) particles have no fixed mass.
    expect(normaliseValue(LPA, 50, 'nmol/L')).toBeNull();
    // Temperature is convertible by UCUM, but not to a mass concentration.
    expect(normaliseValue(SODIUM, 37, 'Cel')).toBeNull();
  });

  it('keeps a unitless ratio as it is', () => {
    expect(normaliseValue(BUN_CREATININE, 12, null)).toEqual({ value: 12, unit: '' });
    expect(normaliseValue(BUN_CREATININE, 12, 'ratio')).toEqual({ value: 12, unit: '' });
    expect(normaliseValue(BUN_CREATININE, 12, 'mg/dL')).toBeNull();
  });
});

describe('the lab catalogue', () => {
  const source = readFileSync(new URL('../../seed/labCatalogue.ts', import.meta.url), 'utf8');
  const results = [...source.matchAll(/loinc: '([^']+)'.*?\bunit: (?:null|'([^']*)')/g)].map((m) => ({
    loinc: m[1]!,
    unit: m[2] ?? null,
  }));

  it('is read from its source', () => {
    expect(results.length).toBeGreaterThanOrEqual(60);
    expect(results).toContainEqual({ loinc: GLUCOSE, unit: 'mg/dL' });
    expect(results).toContainEqual({ loinc: BUN_CREATININE, unit: null });
  });

  // Qualitative screens (Non-Reactive / Reactive) have no number to normalise.
  const QUALITATIVE = new Set(['56888-1', '13955-0', '20507-0']);

  it('has each result’s unit as its canonical unit, and normalising that unit is the identity', () => {
    for (const { loinc, unit } of results) {
      expect(canonicalUnit(loinc), loinc).toBe(unit);
      if (QUALITATIVE.has(loinc)) {
        expect(normaliseValue(loinc, 1, unit), loinc).toBeNull();
        continue;
      }
      expect(normaliseValue(loinc, 12.3456, unit), loinc).toEqual({ value: 12.3456, unit: unit ?? '' });
      if (unit !== null) expect(toUcum(unit), unit).not.toBeNull();
    }
  });

  it('knows no canonical unit for an unknown code', () => {
    expect(canonicalUnit('0000-0')).toBeNull();
    expect(knowsAnalyte('0000-0')).toBe(false);
  });

  it('knows every numeric result of the catalogue, a unitless one too', () => {
    for (const { loinc } of results) expect(knowsAnalyte(loinc), loinc).toBe(!QUALITATIVE.has(loinc));
    expect(canonicalUnit(BUN_CREATININE)).toBeNull();
  });
});

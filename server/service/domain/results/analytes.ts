/**
 * What a clinical laboratory knows about each result it reports, keyed by LOINC code: unit and
 * printed precision, reference range (by sex and age where labs split them), measuring range,
 * critical (panic) limits and, for calculated results, the formula and its inputs.
 *
 * Sources and choices, so a reviewer can check them:
 * - Reference ranges are typical US adult reference-lab intervals: chemistry, thyroid, iron and
 *   hormones mostly as Quest prints them, the CBC, differential, creatinine, magnesium, folate,
 *   Lp(a), PSA and hs-CRP as Labcorp does, DHEA-S, ALP and GGT from the Roche insert intervals
 *   that both use; estradiol as Mayo prints it for men and for women of unknown cycle phase, with
 *   Quest's postmenopausal limit from 51. Pediatric intervals are not modelled: under 18 the
 *   youngest adult band applies.
 * - `other` and `unknown` sex get the union of the female and male intervals (the widest), written
 *   out per analyte rather than computed, so the printed text stays what a lab would print.
 * - A two-sided range ("70-99") includes its limits; a one-sided one excludes its limit, as printed:
 *   "<200" flags 200 as high, ">39" flags 39 as low.
 * - Critical limits are inclusive (a potassium of exactly 6.2 is critical) and near the medians of
 *   the CAP critical-value surveys: glucose <=50 / >=450 mg/dL, potassium <=2.8 / >=6.2, sodium
 *   <=120 / >=160 mmol/L, calcium <=6.5 / >=13.0 mg/dL, CO2 <=10 / >=40 mmol/L, magnesium <=1.0 /
 *   >=4.9 mg/dL, creatinine >=7.00 mg/dL, total bilirubin (adult) >=15.0 mg/dL, hemoglobin <=7.0 /
 *   >=20.0 g/dL, hematocrit <=20.0 / >=60.0 %, platelets <=20 / >=1000 and WBC <=2.0 / >=30.0 10*3/uL.
 *   Nothing else has one (TSH, lipids, enzymes... are never called in as panic values).
 * - Measuring (reportable) ranges follow the usual analyser limits (mostly Roche cobas, Sysmex XN).
 * - eGFR is CKD-EPI 2021 (race-free); patients of `other` or `unknown` sex get the female
 *   coefficients, the lower and so more cautious estimate. It is not reported under 18 (the
 *   equation is for adults). LDL is Friedewald (TC - HDL - TG/5) and not reported when
 *   triglycerides are above 400 mg/dL, as labs print "not calculated" then.
 * - Vitamin D: as with Quest's LC/MS/MS test, D3 and D2 are reported next to the total and add up
 *   to it; an undetectable D2 ("<4") counts as zero. The total is the measured driver and D3 is
 *   modelled as total - D2. D2 and D3 carry no reference range of their own, nor do the differential
 *   percentages (only the absolute counts are flagged, as at Labcorp) or the eAG.
 */

export type Sex = 'female' | 'male' | 'other' | 'unknown';
export interface Patient {
  sex: Sex;
  ageYears: number;
}
export type ValueInterpretation = 'normal' | 'abnormal' | 'critical';

/**
 * A reference range as the lab prints it: text like "70-99", "<200", ">39", "0.40-4.50", "Non-Reactive".
 * A two-sided range includes `low` and `high`; a one-sided one excludes its only limit ("<200": 200 is high).
 */
export interface ReferenceRange {
  low?: number;
  high?: number;
  text: string;
}

/** Printed range text per sex; `other` (the union of both) also serves `unknown`. */
export interface BySex {
  female: string;
  male: string;
  other: string;
}
/** Age bands in ascending `from` (years, inclusive); the first band also covers younger patients. */
export type ByAge = ReadonlyArray<{ from: number; range: string | BySex }>;
export type RangeSpec = string | BySex | ByAge;

/** How the simulator draws values; clinical facts live in the other fields. */
export interface SimulationHints {
  /** Skewed analytes (hormones, enzymes, CRP...) are drawn on a log scale. */
  log?: boolean;
  /** Where healthy values sit: bounds an open-ended range ("<200") and may narrow a wide one. */
  typical?: [number, number];
  /** Where the bulk of normal values sits within the normal span, 0 (low end) to 1; default 0.5. */
  centre?: number;
  /** Farthest abnormal (non-critical) values drawn; defaults are relative to the reference range. */
  abnormal?: { low?: number; high?: number };
  /** Farthest critical values drawn. */
  criticalEdge?: { low?: number; high?: number };
  /** Share of abnormal or critical values that fall low rather than high, when both are possible; default 0.5. */
  lowShare?: number;
  /** Share of normal results printed below the measuring range ("<0.3"), for analytes often undetectable in health. */
  undetectable?: number;
}

export interface AnalyteProfile {
  loinc: string;
  label: string;
  unit: string | null; // exactly the catalogue's unit
  decimals: number; // how the lab prints it (glucose 0, potassium 1, TSH 2 ...)
  reportable?: [number, number]; // analytical measuring range; values outside are printed "<lo" or ">hi"
  critical?: { low?: number; high?: number }; // critical (panic) limits, inclusive; absent when the analyte has none
  qualitative?: { normal: string; abnormal: string[] };
  /** Inputs of a calculated result (eGFR, LDL, ratios, absolute counts...), by LOINC; the first is the main one. */
  calculatedFrom?: string[];
  /** The formula of a calculated result, over the `calculatedFrom` values in order; null when not calculable. */
  formula?: (inputs: readonly number[], patient: Patient) => number | null;
  /** Inputs whose undetectable result ("<4") the formula takes as zero; any other input outside its measuring range makes the result not calculable. */
  zeroWhenUndetectable?: string[];
  /** Absent: the lab prints no reference range and never flags the result. */
  range?: RangeSpec;
  sim?: SimulationHints;
}

/** CKD-EPI 2021 creatinine equation (race-free), mL/min/1.73m2, unrounded. */
export function ckdEpi2021(creatinine: number, ageYears: number, sex: Sex): number {
  // Other and unknown sex: the female coefficients, the more cautious (lower) estimate.
  const female = sex !== 'male';
  const kappa = female ? 0.7 : 0.9;
  const alpha = female ? -0.241 : -0.302;
  const r = creatinine / kappa;
  return 142 * Math.min(r, 1) ** alpha * Math.max(r, 1) ** -1.2 * 0.9938 ** ageYears * (female ? 1.012 : 1);
}

/** Triglycerides (mg/dL) above which the Friedewald estimate of LDL is invalid. */
export const FRIEDEWALD_MAX_TRIGLYCERIDES = 400;
/** CKD-EPI 2021 is an equation for adults: no eGFR below this age (children need a pediatric equation and their height). */
export const EGFR_MIN_AGE = 18;

/** Friedewald LDL, mg/dL; null above 400 mg/dL of triglycerides, where the estimate is invalid. */
export function friedewaldLdl(chol: number, hdl: number, trig: number): number | null {
  return trig > FRIEDEWALD_MAX_TRIGLYCERIDES ? null : chol - hdl - trig / 5;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

type Def = Omit<AnalyteProfile, 'loinc'>;
const q = (label: string): Def => ({
  label,
  unit: null,
  decimals: 0,
  qualitative: { normal: 'Non-Reactive', abnormal: ['Reactive'] },
  range: 'Non-Reactive',
});

const DEFINITIONS: Record<string, Def> = {
  // Glucose and A1c
  '2345-7': {
    label: 'Glucose',
    unit: 'mg/dL',
    decimals: 0,
    range: '65-99',
    reportable: [10, 750],
    critical: { low: 50, high: 450 },
    sim: { centre: 0.65, abnormal: { low: 55, high: 250 }, criticalEdge: { low: 30, high: 700 }, lowShare: 0.15 },
  },
  '4548-4': { label: 'Hemoglobin A1c', unit: '%', decimals: 1, range: '<5.7', reportable: [4.0, 14.0], sim: { typical: [4.6, 5.6], abnormal: { high: 9.5 } } },
  '27353-2': { label: 'Estimated Average Glucose', unit: 'mg/dL', decimals: 0, calculatedFrom: ['4548-4'], formula: ([a1c]) => 28.7 * a1c! - 46.7 },

  // Thyroid
  '3016-3': { label: 'TSH', unit: 'mIU/L', decimals: 2, range: '0.40-4.50', reportable: [0.01, 100], sim: { log: true, abnormal: { low: 0.05, high: 12 }, lowShare: 0.35 } },
  '3024-7': { label: 'Free T4', unit: 'ng/dL', decimals: 1, range: '0.8-1.8', reportable: [0.1, 7.7], sim: { abnormal: { low: 0.4, high: 3.0 } } },
  '3051-0': { label: 'Free T3', unit: 'pg/mL', decimals: 1, range: '2.3-4.2', reportable: [0.3, 32.0], sim: { abnormal: { low: 1.5, high: 7.0 } } },
  '3026-2': { label: 'T4, Total', unit: 'ug/dL', decimals: 1, range: '5.1-11.9', reportable: [0.4, 24.8], sim: { abnormal: { low: 3.0, high: 16.0 } } },
  '3050-2': { label: 'T3 Uptake', unit: '%', decimals: 0, range: '22-35', reportable: [10, 60], sim: { abnormal: { low: 17, high: 42 } } },
  '32215-6': {
    label: 'Free Thyroxine Index',
    unit: null,
    decimals: 1,
    range: '1.4-3.8',
    calculatedFrom: ['3026-2', '3050-2'],
    formula: ([t4, uptake]) => (t4! * uptake!) / 100,
  },

  // Vitamin D
  '62292-8': {
    label: 'Vitamin D, 25-OH, Total',
    unit: 'ng/mL',
    decimals: 0,
    range: '30-100',
    reportable: [4, 150],
    sim: { typical: [30, 80], centre: 0.4, abnormal: { low: 8, high: 140 }, lowShare: 0.92 },
  },
  '1989-3': {
    label: 'Vitamin D, 25-OH, D3',
    unit: 'ng/mL',
    decimals: 0,
    calculatedFrom: ['62292-8', '1988-5'],
    zeroWhenUndetectable: ['1988-5'],
    formula: ([total, d2]) => total! - d2!,
  },
  // Mostly undetectable: only patients on ergocalciferol have any; the simulator draws it from the total.
  '1988-5': { label: 'Vitamin D, 25-OH, D2', unit: 'ng/mL', decimals: 0, reportable: [4, 150], sim: { typical: [4, 40] } },

  // Iron
  '2276-4': {
    label: 'Ferritin',
    unit: 'ng/mL',
    decimals: 0,
    range: [
      { from: 0, range: { female: '16-154', male: '38-380', other: '16-380' } },
      { from: 50, range: { female: '16-232', male: '38-380', other: '16-380' } },
    ],
    reportable: [1, 2000],
    sim: { log: true, abnormal: { low: 5, high: 900 }, lowShare: 0.6 },
  },
  '2498-4': {
    label: 'Iron, Total',
    unit: 'ug/dL',
    decimals: 0,
    range: { female: '40-190', male: '50-180', other: '40-190' },
    reportable: [5, 1000],
    sim: { abnormal: { low: 15, high: 300 }, lowShare: 0.75 },
  },
  '2500-7': { label: 'Iron Binding Capacity', unit: 'ug/dL', decimals: 0, range: '250-450', reportable: [50, 700], sim: { abnormal: { low: 150, high: 600 } } },
  '2502-3': {
    label: '% Saturation',
    unit: '%',
    decimals: 0,
    range: { female: '16-45', male: '20-48', other: '16-48' },
    calculatedFrom: ['2498-4', '2500-7'],
    formula: ([iron, tibc]) => {
      const r = ratio(iron!, tibc!);
      return r === null ? null : r * 100;
    },
  },
  '2132-9': { label: 'Vitamin B12', unit: 'pg/mL', decimals: 0, range: '200-1100', reportable: [50, 2000], sim: { log: true, abnormal: { low: 100, high: 1900 }, lowShare: 0.6 } },
  '2284-8': { label: 'Folate, Serum', unit: 'ng/mL', decimals: 1, range: '>3.0', reportable: [0.6, 20.0], sim: { log: true, typical: [3.1, 20.0], centre: 0.6, abnormal: { low: 1.5 } } },

  // Kidney
  '2160-0': {
    label: 'Creatinine',
    unit: 'mg/dL',
    decimals: 2,
    range: { female: '0.57-1.00', male: '0.76-1.27', other: '0.57-1.27' },
    reportable: [0.15, 25.0],
    critical: { high: 7.0 },
    sim: { abnormal: { low: 0.4, high: 4.0 }, criticalEdge: { high: 12.0 }, lowShare: 0.15 },
  },
  '98979-8': {
    label: 'eGFR',
    unit: 'mL/min/1.73m2',
    decimals: 0,
    range: '>59',
    calculatedFrom: ['2160-0'],
    formula: ([creatinine], p) => (p.ageYears < EGFR_MIN_AGE ? null : ckdEpi2021(creatinine!, p.ageYears, p.sex)),
  },
  '3094-0': { label: 'Urea Nitrogen (BUN)', unit: 'mg/dL', decimals: 0, range: '7-25', reportable: [2, 150], sim: { abnormal: { low: 4, high: 60 }, lowShare: 0.2 } },
  '3097-3': {
    label: 'BUN/Creatinine Ratio',
    unit: null,
    decimals: 0,
    range: '6-22',
    calculatedFrom: ['3094-0', '2160-0'],
    formula: ([bun, creatinine]) => ratio(bun!, creatinine!),
  },

  // Liver
  '1742-6': { label: 'ALT', unit: 'U/L', decimals: 0, range: { female: '6-29', male: '9-46', other: '6-46' }, reportable: [5, 3000], sim: { log: true, abnormal: { high: 200 }, lowShare: 0 } },
  '1920-8': { label: 'AST', unit: 'U/L', decimals: 0, range: { female: '10-35', male: '10-40', other: '10-40' }, reportable: [5, 3000], sim: { log: true, abnormal: { high: 200 }, lowShare: 0 } },
  '6768-6': {
    label: 'Alkaline Phosphatase',
    unit: 'U/L',
    decimals: 0,
    range: { female: '35-104', male: '40-129', other: '35-129' },
    reportable: [5, 1200],
    sim: { abnormal: { low: 20, high: 350 }, lowShare: 0.15 },
  },
  '1975-2': {
    label: 'Bilirubin, Total',
    unit: 'mg/dL',
    decimals: 1,
    range: '0.2-1.2',
    reportable: [0.1, 35.0],
    critical: { high: 15.0 },
    sim: { abnormal: { high: 5.0 }, criticalEdge: { high: 25.0 }, lowShare: 0 },
  },
  '1968-7': { label: 'Bilirubin, Direct', unit: 'mg/dL', decimals: 2, range: '0.00-0.40', reportable: [0.05, 15.0], sim: { centre: 0.35, abnormal: { high: 1.0 }, lowShare: 0 } },
  '1751-7': { label: 'Albumin', unit: 'g/dL', decimals: 1, range: '3.6-5.1', reportable: [1.0, 6.0], sim: { centre: 0.55, abnormal: { low: 2.8, high: 5.5 }, lowShare: 0.85 } },
  '2885-2': { label: 'Protein, Total', unit: 'g/dL', decimals: 1, range: '6.1-8.1', reportable: [2.0, 12.0], sim: { abnormal: { low: 5.2, high: 9.5 } } },
  '10834-0': {
    label: 'Globulin',
    unit: 'g/dL',
    decimals: 1,
    range: '1.9-3.7',
    calculatedFrom: ['2885-2', '1751-7'],
    formula: ([protein, albumin]) => protein! - albumin!,
  },
  '1759-0': {
    label: 'Albumin/Globulin Ratio',
    unit: null,
    decimals: 1,
    range: '1.0-2.5',
    calculatedFrom: ['1751-7', '2885-2'],
    formula: ([albumin, protein]) => ratio(albumin!, protein! - albumin!),
  },

  // Electrolytes
  '2951-2': {
    label: 'Sodium',
    unit: 'mmol/L',
    decimals: 0,
    range: '135-146',
    reportable: [80, 180],
    critical: { low: 120, high: 160 },
    sim: { abnormal: { low: 125, high: 152 }, criticalEdge: { low: 110, high: 170 }, lowShare: 0.7 },
  },
  '2823-3': {
    label: 'Potassium',
    unit: 'mmol/L',
    decimals: 1,
    range: '3.5-5.3',
    reportable: [1.5, 10.0],
    critical: { low: 2.8, high: 6.2 },
    sim: { abnormal: { low: 3.0, high: 5.9 }, criticalEdge: { low: 2.2, high: 7.5 } },
  },
  '2075-0': { label: 'Chloride', unit: 'mmol/L', decimals: 0, range: '98-110', reportable: [60, 140], sim: { abnormal: { low: 92, high: 115 } } },
  '2028-9': {
    label: 'Carbon Dioxide',
    unit: 'mmol/L',
    decimals: 0,
    range: '20-32',
    reportable: [2, 50],
    critical: { low: 10, high: 40 },
    sim: { abnormal: { low: 15, high: 36 }, criticalEdge: { low: 5, high: 45 }, lowShare: 0.7 },
  },
  '17861-6': {
    label: 'Calcium',
    unit: 'mg/dL',
    decimals: 1,
    range: '8.6-10.3',
    reportable: [1.0, 20.0],
    critical: { low: 6.5, high: 13.0 },
    sim: { abnormal: { low: 7.6, high: 11.5 }, criticalEdge: { low: 5.0, high: 15.0 } },
  },
  '19123-9': {
    label: 'Magnesium',
    unit: 'mg/dL',
    decimals: 1,
    range: '1.6-2.3',
    reportable: [0.2, 10.0],
    critical: { low: 1.0, high: 4.9 },
    sim: { abnormal: { low: 1.2, high: 3.2 }, criticalEdge: { low: 0.6, high: 7.0 }, lowShare: 0.7 },
  },

  // Lipids
  '2093-3': { label: 'Cholesterol, Total', unit: 'mg/dL', decimals: 0, range: '<200', reportable: [20, 800], sim: { typical: [125, 199], centre: 0.6, abnormal: { high: 300 } } },
  '2085-9': {
    label: 'HDL Cholesterol',
    unit: 'mg/dL',
    decimals: 0,
    range: { female: '>49', male: '>39', other: '>39' },
    reportable: [3, 150],
    sim: { typical: [40, 95], centre: 0.3, abnormal: { low: 25 } },
  },
  '13457-7': {
    label: 'LDL Cholesterol (calculated)',
    unit: 'mg/dL',
    decimals: 0,
    range: '<100',
    calculatedFrom: ['2093-3', '2085-9', '2571-8'],
    formula: ([chol, hdl, trig]) => friedewaldLdl(chol!, hdl!, trig!),
  },
  '2571-8': { label: 'Triglycerides', unit: 'mg/dL', decimals: 0, range: '<150', reportable: [10, 1000], sim: { log: true, typical: [40, 149], abnormal: { high: 500 } } },
  '9830-1': { label: 'Chol/HDLC Ratio', unit: null, decimals: 1, range: '<5.0', calculatedFrom: ['2093-3', '2085-9'], formula: ([chol, hdl]) => ratio(chol!, hdl!) },
  '43396-1': { label: 'Non-HDL Cholesterol', unit: 'mg/dL', decimals: 0, range: '<130', calculatedFrom: ['2093-3', '2085-9'], formula: ([chol, hdl]) => chol! - hdl! },
  '1884-6': { label: 'Apolipoprotein B', unit: 'mg/dL', decimals: 0, range: '<90', reportable: [20, 400], sim: { typical: [50, 89], centre: 0.55, abnormal: { high: 160 } } },
  '10835-7': {
    label: 'Lipoprotein (a)',
    unit: 'mg/dL',
    decimals: 1,
    range: '<30.0',
    reportable: [8.4, 300.0],
    sim: { log: true, typical: [8.4, 29.9], undetectable: 0.3, abnormal: { high: 150 } },
  },

  // Inflammation, hormones, other chemistry
  '30522-7': {
    label: 'hs-CRP',
    unit: 'mg/L',
    decimals: 1,
    range: '0.0-3.0',
    reportable: [0.3, 20.0],
    sim: { log: true, typical: [0.3, 3.0], centre: 0.45, undetectable: 0.12, abnormal: { high: 15.0 }, lowShare: 0 },
  },
  '2986-8': {
    label: 'Testosterone, Total',
    unit: 'ng/dL',
    decimals: 0,
    range: { female: '2-45', male: '250-827', other: '2-827' },
    reportable: [2, 3000],
    sim: { log: true, centre: 0.65, lowShare: 0.7 },
  },
  '2243-4': {
    label: 'Estradiol',
    unit: 'pg/mL',
    decimals: 0,
    // Women under 51: the union of the cycle phases, as the phase is not known.
    range: [
      { from: 0, range: { female: '15-350', male: '10-40', other: '10-350' } },
      { from: 51, range: { female: '<31', male: '10-40', other: '<41' } },
    ],
    reportable: [5, 3000],
    sim: { log: true, typical: [5, 350] },
  },
  '2857-1': { label: 'PSA, Total', unit: 'ng/mL', decimals: 1, range: '0.0-4.0', reportable: [0.1, 100.0], sim: { log: true, typical: [0.2, 4.0], centre: 0.4, abnormal: { high: 12.0 }, lowShare: 0 } },
  '2143-6': { label: 'Cortisol, AM', unit: 'ug/dL', decimals: 1, range: '4.0-22.0', reportable: [0.5, 60.0], sim: { abnormal: { low: 1.5, high: 35.0 } } },
  '20448-7': { label: 'Insulin', unit: 'uIU/mL', decimals: 1, range: '2.0-19.6', reportable: [0.4, 300.0], sim: { log: true, abnormal: { low: 1.0, high: 60.0 }, lowShare: 0.1 } },
  '3084-1': {
    label: 'Uric Acid',
    unit: 'mg/dL',
    decimals: 1,
    range: { female: '2.5-7.0', male: '4.0-8.0', other: '2.5-8.0' },
    reportable: [0.2, 25.0],
    sim: { abnormal: { low: 1.5, high: 11.0 }, lowShare: 0.15 },
  },
  '2191-5': {
    label: 'DHEA Sulfate',
    unit: 'ug/dL',
    decimals: 1,
    range: [
      { from: 0, range: { female: '65.1-368.0', male: '70.2-492.0', other: '65.1-492.0' } },
      { from: 20, range: { female: '148.0-407.0', male: '211.0-492.0', other: '148.0-492.0' } },
      { from: 25, range: { female: '98.8-340.0', male: '160.0-449.0', other: '98.8-449.0' } },
      { from: 35, range: { female: '60.9-337.0', male: '88.9-427.0', other: '60.9-427.0' } },
      { from: 45, range: { female: '35.4-256.0', male: '44.3-331.0', other: '35.4-331.0' } },
      { from: 55, range: { female: '18.9-205.0', male: '51.7-295.0', other: '18.9-295.0' } },
      { from: 65, range: { female: '9.4-246.0', male: '33.6-249.0', other: '9.4-249.0' } },
      { from: 75, range: { female: '12.0-154.0', male: '16.2-123.0', other: '12.0-154.0' } },
    ],
    reportable: [0.1, 1000.0],
    sim: { log: true },
  },
  '2324-2': { label: 'GGT', unit: 'U/L', decimals: 0, range: { female: '6-42', male: '10-71', other: '6-71' }, reportable: [3, 1200], sim: { log: true, abnormal: { high: 250 }, lowShare: 0 } },

  // CBC
  '6690-2': {
    label: 'White Blood Cell Count',
    unit: '10*3/uL',
    decimals: 1,
    range: '3.4-10.8',
    reportable: [0.1, 400.0],
    critical: { low: 2.0, high: 30.0 },
    sim: { abnormal: { low: 2.5, high: 18.0 }, criticalEdge: { low: 0.8, high: 60.0 } },
  },
  '789-8': {
    label: 'Red Blood Cell Count',
    unit: '10*6/uL',
    decimals: 2,
    range: { female: '3.77-5.28', male: '4.14-5.80', other: '3.77-5.80' },
    reportable: [0.1, 8.6],
    sim: { abnormal: { low: 2.8, high: 6.5 }, lowShare: 0.7 },
  },
  '718-7': {
    label: 'Hemoglobin',
    unit: 'g/dL',
    decimals: 1,
    range: { female: '11.1-15.9', male: '13.0-17.7', other: '11.1-17.7' },
    reportable: [1.0, 25.0],
    critical: { low: 7.0, high: 20.0 },
    sim: { abnormal: { low: 8.0, high: 19.0 }, criticalEdge: { low: 5.0, high: 22.0 }, lowShare: 0.8 },
  },
  '4544-3': {
    label: 'Hematocrit',
    unit: '%',
    decimals: 1,
    range: { female: '34.0-46.6', male: '37.5-51.0', other: '34.0-51.0' },
    reportable: [5.0, 75.0],
    critical: { low: 20.0, high: 60.0 },
    sim: { abnormal: { low: 24.0, high: 57.0 }, criticalEdge: { low: 15.0, high: 66.0 }, lowShare: 0.8 },
  },
  '787-2': { label: 'MCV', unit: 'fL', decimals: 0, range: '79-97', calculatedFrom: ['4544-3', '789-8'], formula: ([hct, rbc]) => ratio(hct! * 10, rbc!) },
  '785-6': { label: 'MCH', unit: 'pg', decimals: 1, range: '26.6-33.0', calculatedFrom: ['718-7', '789-8'], formula: ([hgb, rbc]) => ratio(hgb! * 10, rbc!) },
  '786-4': { label: 'MCHC', unit: 'g/dL', decimals: 1, range: '31.5-35.7', calculatedFrom: ['718-7', '4544-3'], formula: ([hgb, hct]) => ratio(hgb! * 100, hct!) },
  '788-0': {
    label: 'RDW',
    unit: '%',
    decimals: 1,
    range: { female: '11.7-15.4', male: '11.6-15.4', other: '11.6-15.4' },
    reportable: [8.0, 40.0],
    sim: { centre: 0.35, abnormal: { low: 10.5, high: 20.0 }, lowShare: 0.05 },
  },
  '777-3': {
    label: 'Platelet Count',
    unit: '10*3/uL',
    decimals: 0,
    range: '150-450',
    reportable: [1, 5000],
    critical: { low: 20, high: 1000 },
    sim: { centre: 0.4, abnormal: { low: 75, high: 650 }, criticalEdge: { low: 5, high: 1500 } },
  },
  // Differential: the percentages are measured and carry no range; the absolute counts are flagged.
  '770-8': { label: 'Neutrophils', unit: '%', decimals: 0 },
  '736-9': { label: 'Lymphocytes', unit: '%', decimals: 0 },
  '5905-5': { label: 'Monocytes', unit: '%', decimals: 0 },
  '713-8': { label: 'Eosinophils', unit: '%', decimals: 0 },
  '706-2': { label: 'Basophils', unit: '%', decimals: 0 },
  '751-8': { label: 'Absolute Neutrophils', ...absolute('770-8', '1.4-7.0', { low: 0.6, high: 12.0 }, 0.5) },
  '731-0': { label: 'Absolute Lymphocytes', ...absolute('736-9', '0.7-3.1', { low: 0.3, high: 5.0 }, 0.5) },
  '742-7': { label: 'Absolute Monocytes', ...absolute('5905-5', '0.1-0.9', { high: 2.0 }, 0) },
  '711-2': { label: 'Absolute Eosinophils', ...absolute('713-8', '0.0-0.4', { high: 1.5 }, 0) },
  '704-7': { label: 'Absolute Basophils', ...absolute('706-2', '0.0-0.2', { high: 0.5 }, 0) },

  // Infectious disease screens (qualitative)
  '56888-1': q('HIV-1/2 Antigen and Antibodies, 4th Gen'),
  '13955-0': q('Hepatitis C Antibody'),
  '20507-0': q('RPR (Syphilis Screen)'),
};

function absolute(percent: string, range: string, abnormal: { low?: number; high?: number }, lowShare: number): Omit<Def, 'label'> {
  return {
    unit: '10*3/uL',
    decimals: 1,
    range,
    // The percentage comes first: a want on the count moves that cell line, not the WBC.
    calculatedFrom: [percent, '6690-2'],
    formula: ([pct, wbc]) => (wbc! * pct!) / 100,
    sim: { abnormal, lowShare },
  };
}

export const ANALYTE_PROFILES: Readonly<Record<string, AnalyteProfile>> = Object.freeze(
  Object.fromEntries(Object.entries(DEFINITIONS).map(([loinc, d]) => [loinc, Object.freeze({ loinc, ...d })])),
);

/** Parses a printed range; text without numbers (qualitative) has no limits. */
export function parseRange(text: string): ReferenceRange {
  const two = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(text);
  if (two) return { low: Number(two[1]), high: Number(two[2]), text };
  const one = /^([<>])(\d+(?:\.\d+)?)$/.exec(text);
  if (one) return one[1] === '<' ? { high: Number(one[2]), text } : { low: Number(one[2]), text };
  return { text };
}

const isByAge = (spec: RangeSpec): spec is ByAge => Array.isArray(spec);

function bySex(spec: string | BySex, sex: Sex): string {
  if (typeof spec === 'string') return spec;
  return sex === 'female' ? spec.female : sex === 'male' ? spec.male : spec.other;
}

export function referenceRange(loinc: string, patient: Patient): ReferenceRange | null {
  const spec = ANALYTE_PROFILES[loinc]?.range;
  if (spec === undefined) return null;
  if (!isByAge(spec)) return parseRange(bySex(spec, patient.sex));
  let band = spec[0]!;
  for (const b of spec) if (patient.ageYears >= b.from) band = b;
  return parseRange(bySex(band.range, patient.sex));
}

const twoSided = (r: ReferenceRange) => r.low !== undefined && r.high !== undefined;

/** Below the range as the lab flags it: under a two-sided low, at or under a one-sided ">x". */
export function isBelowRange(range: ReferenceRange, value: number): boolean {
  if (range.low === undefined) return false;
  return twoSided(range) ? value < range.low : value <= range.low;
}

/** Above the range as the lab flags it: over a two-sided high, at or over a one-sided "<x". */
export function isAboveRange(range: ReferenceRange, value: number): boolean {
  if (range.high === undefined) return false;
  return twoSided(range) ? value > range.high : value >= range.high;
}

/**
 * critical beyond a critical limit (inclusive: with a limit of 6.2, a potassium of 6.2 is critical),
 * abnormal outside the reference range, else normal. Unknown, qualitative and range-less analytes
 * are normal (a lab does not flag what it has no interval for).
 */
export function interpretValue(loinc: string, value: number, patient: Patient): ValueInterpretation {
  const profile = ANALYTE_PROFILES[loinc];
  if (!profile || profile.qualitative) return 'normal';
  const c = profile.critical;
  if (c && ((c.low !== undefined && value <= c.low) || (c.high !== undefined && value >= c.high))) return 'critical';
  const range = referenceRange(loinc, patient);
  if (range && (isBelowRange(range, value) || isAboveRange(range, value))) return 'abnormal';
  return 'normal';
}

/** The interpretation of a qualitative result: its normal answer is normal, anything else abnormal. */
export function interpretCoded(loinc: string, text: string): ValueInterpretation {
  const qual = ANALYTE_PROFILES[loinc]?.qualitative;
  if (!qual) return 'normal';
  return text === qual.normal ? 'normal' : 'abnormal';
}

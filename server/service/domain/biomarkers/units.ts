import ucum from '@lhncbc/ucum-lhc';

/**
 * Unit normalisation of lab values, so that one analyte's history (a glucose in mmol/L from one lab,
 * one in mg/dL from another) lands on one chart. Each analyte (LOINC code) has one canonical unit:
 * the US conventional unit the lab catalogue (seed/labCatalogue.ts) prints. Every proper unit
 * conversion goes through UCUM (@lhncbc/ucum-lhc), which checks dimensions and does mol ↔ mass and
 * eq ↔ mol with the molar mass and charge given here; only conventions that are not unit conversions
 * (HbA1c IFCC → NGSP, insulin pmol/L → µIU/mL) are written by hand. Pure: no I/O; the UCUM tables
 * load on first use.
 */

export interface Normalised {
  value: number;
  /**
   * The canonical unit as labs print it (canonicalUnit); '' for the unitless analytes (ratios and
   * indices), whose values are comparable as they are.
   */
  unit: string;
}

// ---------------------------------------------------------------------------------------------
// The analyte table.

type Special =
  /** NGSP % = 0.09148 × IFCC mmol/mol + 2.152 (the IFCC–NGSP master equation). */
  | 'hba1c-ifcc'
  /** 1 µIU/mL = 6.0 pmol/L. */
  | 'insulin-pmol';

interface Analyte {
  /** As labs print it; null for a unitless result. */
  unit: string | null;
  /** g/mol, for mol ↔ mass. */
  molarMass?: number;
  /** Absolute ionic charge, for mEq ↔ mmol (and mEq ↔ mass with molarMass). */
  charge?: number;
  /**
   * Labs write U and IU interchangeably for these analytes (enzymes: "IU/L" is the enzyme unit;
   * hormones: "mU/L" is mIU/L). UCUM keeps them apart, and treats [IU] as arbitrary, so it will not
   * even scale u[IU]/mL to m[IU]/L: both sides are read as U, which scales like any metric unit.
   */
  iuIsU?: true;
  special?: Special;
}

// Molar masses in g/mol, from the molecular formula with IUPAC standard atomic weights (PubChem values),
// except where a comment says which convention labs use instead.
const GLUCOSE = 180.16; // C6H12O6
const CHOLESTEROL = 386.65; // C27H46O; HDL, LDL and non-HDL are reported as cholesterol
/** Triolein (C57H104O6 is 885.4): labs convert with 88.57 mg/dL per mmol/L, i.e. 885.7. */
const TRIGLYCERIDE = 885.7;
const CREATININE = 113.12; // C4H7N3O
/**
 * Urea nitrogen is reported as the mass of urea's two nitrogen atoms (2 × 14.007, labs use 28.0):
 * urea in mmol/L × 2.802 = BUN in mg/dL. A urea *mass* (mg/dL of urea, 60.06 g/mol) cannot be told
 * apart from a BUN mass by its unit and is not converted.
 */
const UREA_NITROGEN = 28.02;
const BILIRUBIN = 584.66; // C33H36N4O6
const IRON = 55.845; // Fe; TIBC is the binding capacity expressed as iron
const CALCIUM = 40.08; // Ca
const MAGNESIUM = 24.305; // Mg
const URIC_ACID = 168.11; // C5H4N4O3
const TESTOSTERONE = 288.42; // C19H28O2
const ESTRADIOL = 272.38; // C18H24O2
const CORTISOL = 362.46; // C21H30O5
/** 25-OH vitamin D3, C27H44O2; total 25-OH D is converted as D3 (2.496 nmol/L per ng/mL), as labs do. */
const CALCIFEDIOL = 400.64;
const ERCALCIDIOL = 412.66; // 25-OH vitamin D2, C28H44O2
const COBALAMIN = 1355.37; // cyanocobalamin C63H88CoN14O14P
const FOLATE = 441.4; // folic acid C19H19N7O6
const DHEA_S = 368.5; // C19H28O5S
const THYROXINE = 776.87; // T4, C15H11I4NO4
const TRIIODOTHYRONINE = 650.97; // T3, C15H12I3NO4
/**
 * Haemoglobin per haem (the tetramer 64 458 g/mol / 4): the basis of the European mmol/L (and fmol for
 * MCH), 0.6206 mmol/L per g/dL.
 */
const HEMOGLOBIN_MONOMER = 16_114;

const massOf = (molarMass: number, unit = 'mg/dL'): Analyte => ({ unit, molarMass });
/** mmol/L = mEq/L because the ion is monovalent (bicarbonate for total CO2, which has no molar mass here). */
const monovalent = (molarMass?: number): Analyte => ({ unit: 'mmol/L', charge: 1, ...(molarMass ? { molarMass } : {}) });
const only = (unit: string | null): Analyte => ({ unit });
const enzyme: Analyte = { unit: 'U/L', iuIsU: true };
const count3: Analyte = only('10*3/uL');
const percent: Analyte = only('%');

/**
 * LOINC → analyte. Covers every result of the lab catalogue. Analytes with no molar mass (proteins
 * such as ferritin, PSA, CRP, albumin, apoB, Lp(a)) convert between mass units only: Lp(a) in nmol/L
 * counts particles whose mass depends on the apo(a) isoform and is deliberately not convertible.
 */
const ANALYTES: ReadonlyMap<string, Analyte> = new Map<string, Analyte>([
  // Glucose metabolism
  ['2345-7', massOf(GLUCOSE)], // glucose
  ['4548-4', { unit: '%', special: 'hba1c-ifcc' }], // HbA1c
  ['27353-2', massOf(GLUCOSE)], // estimated average glucose
  ['20448-7', { unit: 'uIU/mL', iuIsU: true, special: 'insulin-pmol' }], // insulin
  // Thyroid
  ['3016-3', { unit: 'mIU/L', iuIsU: true }], // TSH
  ['3024-7', massOf(THYROXINE, 'ng/dL')], // free T4
  ['3051-0', massOf(TRIIODOTHYRONINE, 'pg/mL')], // free T3
  ['3026-2', massOf(THYROXINE, 'ug/dL')], // total T4
  ['3050-2', percent], // T3 uptake
  ['32215-6', only(null)], // free thyroxine index
  // Vitamins and iron
  ['62292-8', massOf(CALCIFEDIOL, 'ng/mL')], // 25-OH vitamin D, total
  ['1989-3', massOf(CALCIFEDIOL, 'ng/mL')], // 25-OH vitamin D3
  ['1988-5', massOf(ERCALCIDIOL, 'ng/mL')], // 25-OH vitamin D2
  ['2276-4', only('ng/mL')], // ferritin (ng/mL = µg/L)
  ['2498-4', massOf(IRON, 'ug/dL')], // iron
  ['2500-7', massOf(IRON, 'ug/dL')], // iron binding capacity
  ['2502-3', percent], // iron saturation
  ['2132-9', massOf(COBALAMIN, 'pg/mL')], // vitamin B12
  ['2284-8', massOf(FOLATE, 'ng/mL')], // folate
  // Kidney
  ['2160-0', massOf(CREATININE)], // creatinine
  ['98979-8', only('mL/min/1.73m2')], // eGFR
  ['3094-0', massOf(UREA_NITROGEN)], // urea nitrogen
  ['3097-3', only(null)], // BUN/creatinine ratio
  // Liver
  ['1742-6', enzyme], // ALT
  ['1920-8', enzyme], // AST
  ['6768-6', enzyme], // alkaline phosphatase
  ['2324-2', enzyme], // GGT
  ['1975-2', massOf(BILIRUBIN)], // bilirubin, total
  ['1968-7', massOf(BILIRUBIN)], // bilirubin, direct
  ['1751-7', only('g/dL')], // albumin
  ['2885-2', only('g/dL')], // protein, total
  ['10834-0', only('g/dL')], // globulin
  ['1759-0', only(null)], // albumin/globulin ratio
  // Electrolytes and minerals
  ['2951-2', monovalent(22.99)], // sodium, Na
  ['2823-3', monovalent(39.098)], // potassium, K
  ['2075-0', monovalent(35.45)], // chloride, Cl
  ['2028-9', monovalent()], // carbon dioxide, total
  ['17861-6', { unit: 'mg/dL', molarMass: CALCIUM, charge: 2 }], // calcium
  ['19123-9', { unit: 'mg/dL', molarMass: MAGNESIUM, charge: 2 }], // magnesium
  ['3084-1', massOf(URIC_ACID)], // uric acid
  // Lipids and cardiovascular
  ['2093-3', massOf(CHOLESTEROL)], // cholesterol, total
  ['2085-9', massOf(CHOLESTEROL)], // HDL cholesterol
  ['13457-7', massOf(CHOLESTEROL)], // LDL cholesterol (calculated)
  ['43396-1', massOf(CHOLESTEROL)], // non-HDL cholesterol
  ['2571-8', massOf(TRIGLYCERIDE)], // triglycerides
  ['9830-1', only(null)], // cholesterol/HDL ratio
  ['30522-7', only('mg/L')], // hs-CRP
  ['1884-6', only('mg/dL')], // apolipoprotein B
  ['10835-7', only('mg/dL')], // lipoprotein (a)
  // Hormones
  ['2986-8', massOf(TESTOSTERONE, 'ng/dL')], // testosterone
  ['2243-4', massOf(ESTRADIOL, 'pg/mL')], // estradiol
  ['2143-6', massOf(CORTISOL, 'ug/dL')], // cortisol
  ['2191-5', massOf(DHEA_S, 'ug/dL')], // DHEA sulfate
  ['2857-1', only('ng/mL')], // PSA
  // Blood count
  ['6690-2', count3], // WBC
  ['789-8', only('10*6/uL')], // RBC
  ['777-3', count3], // platelets
  ['751-8', count3], // neutrophils, absolute
  ['731-0', count3], // lymphocytes, absolute
  ['742-7', count3], // monocytes, absolute
  ['711-2', count3], // eosinophils, absolute
  ['704-7', count3], // basophils, absolute
  ['718-7', massOf(HEMOGLOBIN_MONOMER, 'g/dL')], // hemoglobin
  ['4544-3', percent], // hematocrit
  ['787-2', only('fL')], // MCV
  ['785-6', massOf(HEMOGLOBIN_MONOMER, 'pg')], // MCH
  ['786-4', massOf(HEMOGLOBIN_MONOMER, 'g/dL')], // MCHC
  ['788-0', percent], // RDW
  ['770-8', percent], // neutrophils %
  ['736-9', percent], // lymphocytes %
  ['5905-5', percent], // monocytes %
  ['713-8', percent], // eosinophils %
  ['706-2', percent], // basophils %
]);

/** Spellings that stand for "no unit" on a unitless result. */
const UNITLESS = /^(?:|ratio|\{ratio\}|index|1)$/i;

// ---------------------------------------------------------------------------------------------
// UCUM.

type Utils = ReturnType<typeof ucum.UcumLhcUtils.getInstance>;
let utils: Utils | undefined;
/** getInstance parses a 230 kB definitions file: only a caller that normalises pays for it. */
function ucumUtils(): Utils {
  utils ??= ucum.UcumLhcUtils.getInstance();
  return utils;
}

/** Unit spellings come from lab feeds and OCR: caches are cleared when full rather than growing. */
const CACHE_LIMIT = 1000;
function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/**
 * Lab spelling → a UCUM candidate (not yet validated). Labs write units for people: micro signs, "mcg",
 * "K/uL" (which UCUM would read as kelvin per µL), "IU" without brackets, "mEq", "dl", all capitals.
 */
function respell(raw: string): string {
  // A superscript exponent of ten would fold into plain digits below ("10³" into "103").
  let s = raw.replace(/10([⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, (_m, exponent: string) => `10*${exponent.normalize('NFKC')}`);
  // NFKC folds the micro sign into the Greek mu and other superscripts (m²) into digits.
  s = s.normalize('NFKC').replace(/μ/g, 'u').replace(/\s+/g, '');

  // Counts: "x10E3/uL", "10^3/uL", "K/uL", "thou/uL" are 10*3/uL; "M/uL", "mil/uL" are 10*6/uL.
  s = s.replace(/^[x×*]?10(?:\^|\*|e)(\d{1,2})\//i, '10*$1/');
  s = s.replace(/^(?:k|thou|thous|thousand)\//i, '10*3/');
  s = s.replace(/^(?:M|mil|mill|million)\//, '10*6/').replace(/^(?:MIL|MILL|MILLION)\//i, '10*6/');
  s = s.replace(/\/(?:cumm|CUMM)$/, '/mm3');

  // In all capitals the case carries nothing, and UCUM is case-sensitive ("PG" is the petagauss):
  // labs' prefixes are lower case, so read it in lower case.
  if (/[A-Z]/.test(s) && !/[a-z]/.test(s)) s = s.toLowerCase();

  s = s.replace(/(^|[^A-Za-z])mc(?=g|L|l|mol)/g, '$1u');
  s = s.replace(/(^|[^A-Za-z[])([munpk]?)(?:IU|iu)(?![A-Za-z\]])/g, '$1$2[IU]');
  s = s.replace(/(^|[^A-Za-z])([munpk]?)(?:Eq|EQ|eq)(?![A-Za-z])/g, '$1$2eq');
  s = s.replace(/(^|[^A-Za-z{])cells?(?![A-Za-z}])/gi, '$1{cells}');
  s = s.replace(/(^|[^A-Za-z])(?:hr|hrs)(?![A-Za-z])/g, '$1h');
  // The litre as "l", "dl", "ml", "UL" (after lower-casing: "ul"): UCUM accepts "l", but one spelling
  // per unit lets an already canonical value be recognised by its code alone. Nobody means megalitres.
  s = s.replace(/(^|[/.])([munpfdc]?)l(?=$|[/.])/gi, (_m, sep: string, prefix: string) => `${sep}${prefix.toLowerCase()}L`);
  s = s.replace(/\/1\.73m(?:\^?2)$/i, '/{1.73_m2}');
  // "u/l" is an enzyme unit per litre in a lab report, not atomic mass units.
  if (s === 'u/L') s = 'U/L';
  return s;
}

const ucumCodes = new Map<string, string | null>();

/** A lab's unit spelling → a UCUM code, or null when it is not a unit UCUM knows. */
export function toUcum(unit: string | null | undefined): string | null {
  if (unit == null) return null;
  const cached = ucumCodes.get(unit);
  if (cached !== undefined) return cached;
  const candidate = respell(unit);
  let code: string | null = null;
  if (candidate !== '') {
    // Only 'valid': an 'invalid' result may carry UCUM's own guess ("1.73m2" → "1.(73.m2)").
    const result = ucumUtils().validateUnitString(candidate, false);
    if (result.status === 'valid' && result.ucumCode) code = result.ucumCode;
  }
  return remember(ucumCodes, unit, code);
}

/** Whether the table knows the analyte, so that its values have one unit to be compared in (none for a ratio). */
export function knowsAnalyte(loinc: string): boolean {
  return ANALYTES.has(loinc.trim());
}

/** The analyte's canonical (US conventional) unit as labs print it, or null when the table has no entry (or the analyte is unitless). */
export function canonicalUnit(loinc: string): string | null {
  return ANALYTES.get(loinc.trim())?.unit ?? null;
}

const factors = new Map<string, number | null>();

/**
 * The factor from one UCUM code to another, or null when UCUM cannot convert (different dimension,
 * a molar mass or charge missing, an arbitrary unit). Every unit in the table is linear, so a factor
 * can be cached; a special (offset or logarithmic) source unit is refused rather than scaled.
 */
function factor(from: string, to: string, molarMass?: number, charge?: number): number | null {
  const key = `${from}\u0000${to}\u0000${molarMass ?? ''}\u0000${charge ?? ''}`;
  const cached = factors.get(key);
  if (cached !== undefined) return cached;
  const u = ucumUtils();
  let f: number | null = null;
  if (u.convertToBaseUnits(from, 1).fromUnitIsSpecial !== true) {
    const result = u.convertUnitTo(from, 1, to, {
      ...(molarMass !== undefined ? { molecularWeight: molarMass } : {}),
      ...(charge !== undefined ? { charge } : {}),
    });
    if (result.status === 'succeeded' && typeof result.toVal === 'number' && Number.isFinite(result.toVal) && result.toVal !== 0) {
      f = result.toVal;
    }
  }
  return remember(factors, key, f);
}

/**
 * Converted values keep 4 significant digits: no lab reports more, and it hides the binary noise of
 * the factors (6.1 × 10*9/L is 6.1000000000000005 × 10*3/uL).
 */
function round(value: number): number {
  return Number(value.toPrecision(4));
}

/** Per UCUM, U and [IU] are separate atoms; for an iuIsU analyte both are read as U. */
function iuAsU(code: string): string {
  return code.replace(/\[IU\]/g, 'U');
}

/** 1 µIU/mL = 6.0 pmol/L: the conventional factor for insulin (assay-dependent, not a molar mass). */
const INSULIN_PMOL_PER_UIU = 6.0;

/** The hand-written conventions; undefined when the case does not apply. */
function special(analyte: Analyte, code: string, value: number): number | undefined {
  switch (analyte.special) {
    case 'hba1c-ifcc':
      // mmol/mol and % are both dimensionless to UCUM, which would call 48 mmol/mol 4.8 %: the IFCC
      // and NGSP scales measure different things and are related by a regression, not a unit.
      if (code === 'mmol/mol') return 0.09148 * value + 2.152;
      return undefined;
    case 'insulin-pmol': {
      const toPmol = factor(code, 'pmol/L');
      return toPmol === null ? undefined : (value * toPmol) / INSULIN_PMOL_PER_UIU;
    }
    default:
      return undefined;
  }
}

/**
 * The value in the analyte's canonical unit; the same value when the unit already is canonical (after
 * spelling normalisation: "K/uL" = "10*3/uL"); null when the analyte is unknown, the unit is not
 * convertible (no molar mass for a mol↔mass conversion, different dimension) or the value not finite.
 * A unitless analyte (a ratio) takes no unit (or "ratio") and comes back as it is, with unit ''.
 */
export function normaliseValue(loinc: string, value: number, unit: string | null | undefined): Normalised | null {
  const analyte = ANALYTES.get(loinc.trim());
  if (!analyte || !Number.isFinite(value)) return null;

  if (analyte.unit === null) {
    return UNITLESS.test((unit ?? '').trim()) ? { value, unit: '' } : null;
  }

  let code = toUcum(unit);
  let target = toUcum(analyte.unit);
  if (code === null || target === null) return null;
  if (analyte.iuIsU) {
    code = iuAsU(code);
    target = iuAsU(target);
  }
  if (code === target) return { value, unit: analyte.unit };

  const bySpecial = special(analyte, code, value);
  if (bySpecial !== undefined) {
    return Number.isFinite(bySpecial) ? { value: round(bySpecial), unit: analyte.unit } : null;
  }

  const f = factor(code, target, analyte.molarMass, analyte.charge);
  if (f === null) return null;
  // Same scale under another name (mEq/L and mmol/L of a monovalent ion, µIU/mL and mIU/L): nothing
  // was converted, so nothing is rounded.
  if (f === 1) return { value, unit: analyte.unit };
  const converted = value * f;
  return Number.isFinite(converted) ? { value: round(converted), unit: analyte.unit } : null;
}

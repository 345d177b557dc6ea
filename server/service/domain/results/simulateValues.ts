import { seededRandom as mulberry32 } from '../../../lib/random';
import {
  ANALYTE_PROFILES,
  interpretValue,
  isAboveRange,
  isBelowRange,
  referenceRange,
  type AnalyteProfile,
  type Patient,
  type ReferenceRange,
  type ValueInterpretation,
} from './analytes';

/**
 * Simulated lab values for one patient's results, realistic enough to be read by a clinician:
 * values drawn inside (or, when wanted, outside) the patient's reference range, printed at the
 * lab's precision, flagged from the printed value, and calculated results that agree with the
 * printed inputs they come from.
 *
 * Behaviour worth knowing (the tests hold each of these):
 * - Without a want, a measured analyte is normal 94% of the time and mildly abnormal otherwise,
 *   never critical; a qualitative screen (HIV, HCV, RPR) is never reactive by chance.
 * - A want on a calculated result applies to its main input (the first of `calculatedFrom`:
 *   creatinine for eGFR, total cholesterol for LDL, the percentage for an absolute count...), and
 *   the simulator also retries until the calculated result itself shows the wanted interpretation
 *   when the inputs allow it. A want on the input itself takes precedence. Measuring-range wants
 *   on a calculated result are ignored: it has no measuring range of its own.
 * - `critical` on an analyte without critical limits becomes `abnormal`; `abnormal` on one that
 *   cannot be flagged (no reference range: D2, differential percentages) is ignored, except that
 *   a want on a differential percentage makes that cell line's absolute count abnormal.
 * - Unknown LOINC codes are left out of the result, as are calculated results that cannot be
 *   calculated: LDL above 400 mg/dL of triglycerides, eGFR under 18 years, any result whose input
 *   is outside its measuring range (the differential when the WBC is).
 * - `fixed` values (those a lab already printed, e.g. in a partial report) are not drawn: they are
 *   used as printed, calculated results come from them, and linked results are drawn to suit them.
 * - Linked results are drawn together and redrawn until they make sense side by side (only
 *   contradictory wants, such as a measuring-range want, can defeat this): hematocrit and RBC follow
 *   hemoglobin through plausible red cell indices (so a critical hemoglobin can bring a critical
 *   hematocrit when no plausible MCHC avoids it), the differential sums to 100%, iron stays under
 *   the binding capacity, direct bilirubin under total, LDL is a plausible share of the non-HDL
 *   cholesterol, and a high TSH does not come with high thyroid hormones (nor a low one with low).
 */

export type Rand = () => number; // [0,1)
export type Want = 'normal' | 'abnormal' | 'critical' | 'below_reportable' | 'above_reportable';

/** A value the lab has already printed: the number, and which end of the measuring range it is beyond ("<0.3", ">1000"). */
export interface FixedValue {
  value: number;
  censored?: 'below' | 'above';
}

export interface SimulatedValue {
  loinc: string;
  value: number | null; // the numeric value (null for qualitative); for "<0.5" the value is 0.5 (the limit)
  result: string; // as printed: "5.4", "<0.5", ">500", "Non-Reactive"
  type: 'numeric' | 'range' | 'coded_value';
  unit: string | null;
  range: ReferenceRange | null;
  interpretation: ValueInterpretation;
  isAboveMaxRange: boolean;
  isBelowMinRange: boolean;
}

/** A deterministic generator (mulberry32) for `rand`. */
export function seededRandom(seed: number): Rand {
  return mulberry32(seed).next;
}

/** The LOINC codes among `loincs` that can be made critical (measured analytes with a critical limit, not calculated ones). */
export function criticalCapable(loincs: string[]): string[] {
  return [...new Set(loincs)].filter((l) => {
    const p = ANALYTE_PROFILES[l];
    return p !== undefined && p.critical !== undefined && p.calculatedFrom === undefined;
  });
}

// ---------------------------------------------------------------------------------------------
// LOINC codes the linked draws refer to.

const L = {
  a1c: '4548-4',
  eag: '27353-2',
  tsh: '3016-3',
  ft4: '3024-7',
  ft3: '3051-0',
  t4: '3026-2',
  t3u: '3050-2',
  fti: '32215-6',
  vitdTotal: '62292-8',
  vitd3: '1989-3',
  vitd2: '1988-5',
  iron: '2498-4',
  tibc: '2500-7',
  ironSat: '2502-3',
  creatinine: '2160-0',
  egfr: '98979-8',
  bun: '3094-0',
  bunCreat: '3097-3',
  bili: '1975-2',
  biliDirect: '1968-7',
  albumin: '1751-7',
  protein: '2885-2',
  globulin: '10834-0',
  agRatio: '1759-0',
  chol: '2093-3',
  hdl: '2085-9',
  ldl: '13457-7',
  trig: '2571-8',
  cholHdl: '9830-1',
  nonHdl: '43396-1',
  wbc: '6690-2',
  rbc: '789-8',
  hgb: '718-7',
  hct: '4544-3',
  mcv: '787-2',
  mch: '785-6',
  mchc: '786-4',
} as const;

/** The white cell lines: percentage, absolute count, and the usual share of a healthy adult's WBC. */
const LINES = [
  { pct: '770-8', abs: '751-8', mean: 0.58, sd: 0.07 },
  { pct: '736-9', abs: '731-0', mean: 0.3, sd: 0.06 },
  { pct: '5905-5', abs: '742-7', mean: 0.075, sd: 0.015 },
  { pct: '713-8', abs: '711-2', mean: 0.025, sd: 0.012 },
  { pct: '706-2', abs: '704-7', mean: 0.006, sd: 0.003 },
] as const;

const P = ANALYTE_PROFILES;
const ORDER = Object.keys(P);
const MILD_SHARE = 0.06;
const MAX_ATTEMPTS = 300;

// ---------------------------------------------------------------------------------------------
// Numbers on the lab's printing grid.

/** Rounds half up as printed values are (the hair of scale keeps 1.005 from printing as 1.00). */
export function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f * (1 + 1e-12)) / f + 0;
}
const floorGrid = (x: number, d: number) => roundTo(Math.floor(x * 10 ** d + 1e-9) / 10 ** d, d);
const ceilGrid = (x: number, d: number) => roundTo(Math.ceil(x * 10 ** d - 1e-9) / 10 ** d, d);
const stepOf = (d: number) => 10 ** -d;

type Span = [number, number];
interface Bands {
  low?: Span;
  high?: Span;
}

/** Where normal values of this patient lie, on the printing grid: inside the range, the typical span and the measuring range. */
export function normalSpan(p: AnalyteProfile, patient: Patient): Span | null {
  const d = p.decimals;
  const step = stepOf(d);
  const r = referenceRange(p.loinc, patient);
  let lo = 0;
  let hi = Infinity;
  if (r && !p.qualitative) {
    const two = r.low !== undefined && r.high !== undefined;
    if (r.low !== undefined) lo = two ? r.low : r.low + step;
    if (r.high !== undefined) hi = two ? r.high : r.high - step;
  }
  const typical = p.sim?.typical;
  if (typical) [lo, hi] = [Math.max(lo, typical[0]), Math.min(hi, typical[1])];
  if (p.reportable) [lo, hi] = [Math.max(lo, p.reportable[0]), Math.min(hi, p.reportable[1])];
  if (!Number.isFinite(hi)) return null;
  [lo, hi] = [ceilGrid(lo, d), floorGrid(hi, d)];
  return lo <= hi ? [lo, hi] : null;
}

/**
 * Abnormal but not critical values of this patient, below and above the range: from the first
 * flagged value to the profile's (or a range-relative) outer edge, short of the critical limits
 * and inside the measuring range.
 */
export function abnormalBands(p: AnalyteProfile, patient: Patient): Bands {
  const r = referenceRange(p.loinc, patient);
  if (!r || p.qualitative) return {};
  const d = p.decimals;
  const step = stepOf(d);
  const two = r.low !== undefined && r.high !== undefined;
  const log = p.sim?.log ?? false;
  const hint = p.sim?.abnormal ?? {};
  const crit = p.critical ?? {};
  const [repLo, repHi] = p.reportable ?? [0, Infinity];
  const out: Bands = {};
  if (r.high !== undefined) {
    const start = two ? roundTo(r.high + step, d) : r.high;
    let edge = hint.high ?? (log ? r.high * 2 : two ? r.high + 0.35 * (r.high - r.low!) : r.high * 1.5);
    if (crit.high !== undefined) edge = Math.min(edge, crit.high - step);
    edge = floorGrid(Math.min(edge, repHi), d);
    if (start <= edge) out.high = [start, edge];
  }
  if (r.low !== undefined) {
    const start = two ? roundTo(r.low - step, d) : r.low;
    let edge = hint.low ?? (log ? r.low / 2 : two ? r.low - 0.35 * (r.high! - r.low) : r.low * 0.5);
    if (crit.low !== undefined) edge = Math.max(edge, crit.low + step);
    edge = ceilGrid(Math.max(edge, repLo, 0), d);
    if (edge <= start) out.low = [edge, start];
  }
  return out;
}

/** Critical values: from the (inclusive) critical limit to the profile's outer edge, inside the measuring range. */
export function criticalBands(p: AnalyteProfile): Bands {
  const c = p.critical;
  if (!c || !p.reportable) return {};
  const d = p.decimals;
  const edge = p.sim?.criticalEdge ?? {};
  const out: Bands = {};
  if (c.high !== undefined) {
    const e = floorGrid(Math.min(edge.high ?? c.high * 1.25, p.reportable[1]), d);
    if (c.high <= e) out.high = [c.high, e];
  }
  if (c.low !== undefined) {
    const e = ceilGrid(Math.max(edge.low ?? c.low * 0.75, p.reportable[0]), d);
    if (e <= c.low) out.low = [e, c.low];
  }
  return out;
}

const hasBand = (b: Bands) => b.low !== undefined || b.high !== undefined;

function pickSide(b: Bands, lowShare: number, rand: Rand): 'low' | 'high' | null {
  if (b.low && b.high) return rand() < lowShare ? 'low' : 'high';
  return b.low ? 'low' : b.high ? 'high' : null;
}

function gauss(rand: Rand): number {
  const u = 1 - rand(); // (0, 1]: the log stays finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** A value in [lo, hi], uniform (or log-uniform), continuous. */
function uniform([lo, hi]: Span, log: boolean, rand: Rand): number {
  if (log && lo > 0) return Math.exp(Math.log(lo) + rand() * (Math.log(hi) - Math.log(lo)));
  return lo + rand() * (hi - lo);
}

/** A normal draw around `centre` (0..1 of the span) truncated to the span, on a log scale for skewed analytes; continuous. */
function truncatedNormal([lo, hi]: Span, centre: number, log: boolean, rand: Rand): number {
  const useLog = log && lo > 0;
  const a = useLog ? Math.log(lo) : lo;
  const b = useLog ? Math.log(hi) : hi;
  const mean = a + centre * (b - a);
  const sd = (b - a) / 4;
  let x = mean;
  for (let i = 0; i < 50; i++) {
    const y = mean + sd * gauss(rand);
    if (y >= a && y <= b) {
      x = y;
      break;
    }
  }
  return useLog ? Math.exp(x) : x;
}

/** Rounds to the grid and keeps the result in a grid-aligned span. */
const onGrid = (x: number, [lo, hi]: Span, d: number) => Math.min(hi, Math.max(lo, roundTo(x, d)));

// ---------------------------------------------------------------------------------------------
// Drawing one measured value.

/** What a measured value is drawn as: `mild` is the inner part of the abnormal band (the chance abnormality of an unwanted analyte). */
type Target = 'normal' | 'mild' | 'abnormal' | 'critical' | 'below' | 'above';
interface Measured {
  value: number;
  censored?: 'below' | 'above';
}

function drawMeasured(p: AnalyteProfile, target: Target, patient: Patient, rand: Rand): Measured {
  const d = p.decimals;
  const log = p.sim?.log ?? false;
  const lowShare = p.sim?.lowShare ?? 0.5;
  if (target === 'below' && p.reportable) return { value: p.reportable[0], censored: 'below' };
  if (target === 'above' && p.reportable) return { value: p.reportable[1], censored: 'above' };
  if (target === 'critical') {
    const bands = criticalBands(p);
    const side = pickSide(bands, lowShare, rand);
    if (side) {
      const span = bands[side]!;
      return { value: onGrid(uniform(span, log, rand), span, d) };
    }
  }
  if (target === 'critical' || target === 'abnormal' || target === 'mild') {
    const bands = abnormalBands(p, patient);
    const side = pickSide(bands, lowShare, rand);
    if (side) {
      let span = bands[side]!;
      if (target === 'mild') {
        // The part of the band next to the range: a chance abnormality is a near miss.
        const [lo, hi] = span;
        span = side === 'high' ? [lo, Math.max(lo, floorGrid(lo + 0.4 * (hi - lo), d))] : [Math.min(hi, ceilGrid(hi - 0.4 * (hi - lo), d)), hi];
      }
      return { value: onGrid(uniform(span, log, rand), span, d) };
    }
  }
  const rep = p.reportable;
  const undetectable = p.sim?.undetectable;
  if (undetectable && rep && rand() < undetectable && interpretValue(p.loinc, rep[0], patient) === 'normal') {
    return { value: rep[0], censored: 'below' };
  }
  const span = normalSpan(p, patient);
  // Every measured numeric profile has a normal span (the tests check it); this is a profile bug.
  if (!span) throw new Error(`analyte ${p.loinc} has no normal span`);
  return { value: onGrid(truncatedNormal(span, p.sim?.centre ?? 0.5, log, rand), span, d) };
}

// ---------------------------------------------------------------------------------------------
// Wants.

const SEVERITY = { normal: 0, abnormal: 1, critical: 2 } as const;
type Level = keyof typeof SEVERITY;
const isLevel = (w: Want): w is Level => w === 'normal' || w === 'abnormal' || w === 'critical';

/** The target a want becomes for a measured analyte, or undefined when it cannot apply. */
function targetOf(p: AnalyteProfile, want: Want, patient: Patient): Target | undefined {
  if (p.qualitative) return want === 'normal' ? 'normal' : isLevel(want) ? 'abnormal' : undefined;
  if (want === 'below_reportable' || want === 'above_reportable') {
    if (!p.reportable) return undefined;
    return want === 'below_reportable' ? 'below' : 'above';
  }
  if (p.range === undefined) {
    // Differential percentages keep the level: it is carried to the cell line's absolute count.
    return LINES.some((line) => line.pct === p.loinc) ? (want === 'normal' ? 'normal' : 'abnormal') : undefined;
  }
  if (want === 'critical') return hasBand(criticalBands(p)) ? 'critical' : targetOf(p, 'abnormal', patient);
  if (want === 'abnormal') return hasBand(abnormalBands(p, patient)) ? 'abnormal' : 'normal';
  return 'normal';
}

const allowedFor = (t: Target): Set<ValueInterpretation> | undefined =>
  t === 'normal' ? new Set(['normal']) : t === 'critical' ? new Set(['critical']) : t === 'abnormal' || t === 'mild' ? new Set(['abnormal']) : undefined;

// ---------------------------------------------------------------------------------------------
// Linked draws.

interface Ctx {
  patient: Patient;
  rand: Rand;
  requested: Set<string>;
  needed: Set<string>;
  /** Explicit targets (from wants, after redirection) of measured analytes. */
  explicit: Map<string, Target>;
  /** Every needed measured analyte's target: explicit, or normal / mild by chance. */
  targets: Map<string, Target>;
  /** Wants on calculated results, by the calculated LOINC. */
  calcWants: Map<string, Level>;
  /** Interpretations the draw should end with, checked on the printed values; a draw that misses them is redrawn. */
  soft: Map<string, Set<ValueInterpretation>>;
  /** The red cell count the others follow (see prepareRed). */
  redLeader?: string;
  /** Values already printed: used as they are, never drawn. */
  fixed: Map<string, Measured>;
}

type Values = Map<string, Measured>;

interface Group {
  measured: string[];
  calculated: string[];
  /** Before drawing: settles who leads and adds the group's own soft targets. */
  prepare?: (ctx: Ctx) => void;
  /** Draws the group's measured values; by default each needed one independently. */
  propose?: (ctx: Ctx) => Values;
  /** Physiological sense of the printed values together (hard: a draw without it is only kept when nothing better came). */
  plausible?: (v: Values, calc: Map<string, number | null>, ctx: Ctx) => boolean;
}

/** An uncensored printed value, if any. */
const num = (v: Values, loinc: string) => {
  const m = v.get(loinc);
  return m && !m.censored ? m.value : undefined;
};

function independent(members: string[]) {
  return (ctx: Ctx): Values => {
    const v: Values = new Map();
    for (const l of members) {
      if (ctx.needed.has(l)) v.set(l, drawMeasured(P[l]!, ctx.targets.get(l) ?? 'normal', ctx.patient, ctx.rand));
    }
    return v;
  };
}

// Hematocrit and RBC follow hemoglobin (or whichever of the three is wanted) through red cell
// indices drawn in plausible ranges: independent draws would print impossible MCHCs.
const RED = [L.hgb, L.hct, L.rbc];

function prepareRed(ctx: Ctx) {
  const needed = RED.filter((l) => ctx.needed.has(l));
  if (needed.length === 0) return;
  const leader = needed.find((l) => ctx.explicit.has(l)) ?? needed[0]!;
  ctx.redLeader = leader;
  const leaderTarget = ctx.targets.get(leader)!;
  for (const l of needed) {
    if (l === leader || ctx.explicit.has(l)) continue;
    // A follower is not drawn: its target only tells the indices whether their inputs are normal.
    // It is as normal as its leader; beside an abnormal leader it may be abnormal but preferably not critical.
    ctx.targets.set(l, leaderTarget === 'normal' ? 'normal' : 'mild');
    ctx.soft.set(l, new Set(leaderTarget === 'normal' ? ['normal'] : ['normal', 'abnormal']));
  }
}

function proposeRed(ctx: Ctx): Values {
  const { rand, patient, explicit, targets } = ctx;
  const leader = ctx.redLeader!;
  const wanted = (c: string) => {
    const w = ctx.calcWants.get(c);
    return w === 'abnormal' || w === 'critical';
  };
  // Microcytic low, macrocytic high; hypochromic far more often than hyperchromic.
  const mcv = wanted(L.mcv) || wanted(L.mch) ? (rand() < 0.6 ? uniform([68, 77], false, rand) : uniform([100, 112], false, rand)) : truncatedNormal([82, 96], 0.5, false, rand);
  const mchc = wanted(L.mchc) ? (rand() < 0.85 ? uniform([28.5, 31.0], false, rand) : uniform([36.2, 37.5], false, rand)) : truncatedNormal([32.4, 35.0], 0.5, false, rand);
  // A printed red cell value leads instead of a fresh draw, so the others follow what was printed.
  const anyFixed = RED.some((l) => ctx.needed.has(l) && ctx.fixed.has(l));
  const drawn = (l: string) =>
    ctx.fixed.get(l) ?? ((l === leader && !anyFixed) || explicit.has(l) ? drawMeasured(P[l]!, targets.get(l) ?? 'normal', patient, rand) : undefined);
  const derived = (l: string, x: number): Measured => {
    const p = P[l]!;
    return { value: onGrid(x, p.reportable!, p.decimals) };
  };
  const hgb0 = drawn(L.hgb);
  const rbc0 = drawn(L.rbc);
  const hct = drawn(L.hct) ?? (hgb0 ? derived(L.hct, (hgb0.value / mchc) * 100) : derived(L.hct, (rbc0!.value * mcv) / 10));
  const hgb = hgb0 ?? derived(L.hgb, (hct.value * mchc) / 100);
  const rbc = rbc0 ?? derived(L.rbc, (hct.value / mcv) * 10);
  return new Map([
    [L.hgb, hgb],
    [L.hct, hct],
    [L.rbc, rbc],
  ]);
}

function plausibleRed(_v: Values, calc: Map<string, number | null>): boolean {
  const within = (l: string, lo: number, hi: number) => {
    const x = calc.get(l);
    return x === undefined || x === null || (x >= lo && x <= hi);
  };
  return within(L.mcv, 60, 125) && within(L.mch, 17, 42) && within(L.mchc, 27, 38);
}

// The differential: shares of the WBC that add up to 100%. A wanted cell line gets an absolute
// count in its wanted band; the first unwanted line (usually neutrophils) takes up the rest.
function proposeWhite(ctx: Ctx): Values {
  const { rand, patient, explicit, targets } = ctx;
  const wbc = ctx.fixed.get(L.wbc) ?? drawMeasured(P[L.wbc]!, targets.get(L.wbc) ?? 'normal', patient, rand);
  const v: Values = new Map([[L.wbc, wbc]]);
  if (wbc.censored) return v; // no differential on a count outside the measuring range
  const shares: number[] = [];
  const free: number[] = [];
  LINES.forEach((line, i) => {
    const t = explicit.get(line.pct);
    const abs = P[line.abs]!;
    if (t === 'abnormal') {
      const bands = abnormalBands(abs, patient);
      const side = pickSide(bands, abs.sim?.lowShare ?? 0.5, rand);
      shares.push(side ? uniform(bands[side]!, false, rand) / wbc.value : line.mean);
    } else if (t === 'normal') {
      shares.push(truncatedNormal(normalSpan(abs, patient)!, 0.5, false, rand) / wbc.value);
    } else {
      shares.push(Math.max(0.001, line.mean + line.sd * gauss(rand)));
      free.push(i);
    }
  });
  const rest = free[0];
  if (rest !== undefined) shares[rest] = Math.max(0, 1 - shares.reduce((s, x, i) => (i === rest ? s : s + x), 0));
  const total = shares.reduce((s, x) => s + x, 0);
  const pct = shares.map((s) => Math.round((s / total) * 100));
  // Rounding leftovers go to the line that took up the rest (or the largest), so the printed shares add up to 100.
  const sink = rest ?? pct.indexOf(Math.max(...pct));
  pct[sink] = pct[sink]! + 100 - pct.reduce((s, x) => s + x, 0);
  LINES.forEach((line, i) => v.set(line.pct, { value: pct[i]! }));
  return v;
}

function plausibleWhite(v: Values): boolean {
  return LINES.every((line) => (v.get(line.pct)?.value ?? 0) >= 0);
}

// Vitamin D: D2 is only there in patients taking ergocalciferol (about one in eight), and always
// leaves room for D3 in the total.
function proposeVitaminD(ctx: Ctx): Values {
  const { rand, patient, explicit, targets } = ctx;
  const total = ctx.fixed.get(L.vitdTotal) ?? drawMeasured(P[L.vitdTotal]!, targets.get(L.vitdTotal) ?? 'normal', patient, rand);
  const v: Values = new Map([[L.vitdTotal, total]]);
  if (!ctx.needed.has(L.vitd2)) return v;
  const d2 = P[L.vitd2]!;
  const t = explicit.get(L.vitd2);
  const undetected: Measured = { value: d2.reportable![0], censored: 'below' };
  if (t === 'below' || t === 'above') v.set(L.vitd2, drawMeasured(d2, t, patient, rand));
  else if (total.censored || total.value < 16 || rand() >= 0.12) v.set(L.vitd2, undetected);
  else v.set(L.vitd2, { value: roundTo(uniform([4, Math.min(40, total.value - 10)], true, rand), 0) });
  return v;
}

function plausibleThyroid(v: Values, _calc: Map<string, number | null>, ctx: Ctx): boolean {
  const tsh = v.get(L.tsh);
  if (!tsh) return true;
  const r = referenceRange(L.tsh, ctx.patient)!;
  const high = isAboveRange(r, tsh.value);
  const low = isBelowRange(r, tsh.value);
  if (!high && !low) return true;
  // The pituitary answers the thyroid: a high TSH with high thyroid hormones (or low with low) is not what a lab sees.
  return [L.ft4, L.ft3, L.t4].every((l) => {
    const m = v.get(l);
    if (!m) return true;
    const rr = referenceRange(l, ctx.patient)!;
    return high ? !isAboveRange(rr, m.value) : !isBelowRange(rr, m.value);
  });
}

const GROUPS: Group[] = [
  { measured: [L.a1c], calculated: [L.eag] },
  { measured: [L.creatinine, L.bun], calculated: [L.egfr, L.bunCreat] },
  {
    measured: [L.chol, L.hdl, L.trig],
    calculated: [L.ldl, L.cholHdl, L.nonHdl],
    plausible: (v) => {
      const chol = num(v, L.chol);
      const hdl = num(v, L.hdl);
      const trig = num(v, L.trig);
      if (chol === undefined || hdl === undefined) return true;
      if (chol - hdl < 40) return false;
      // LDL is most of the non-HDL cholesterol: a tiny or negative LDL means the draw was nonsense.
      return trig === undefined || trig > 400 || chol - hdl - trig / 5 >= 30;
    },
  },
  {
    measured: [L.protein, L.albumin],
    calculated: [L.globulin, L.agRatio],
    plausible: (v) => {
      const tp = num(v, L.protein);
      const alb = num(v, L.albumin);
      return tp === undefined || alb === undefined || (tp - alb >= 1.0 && tp - alb <= 6.0);
    },
  },
  { measured: [L.tsh, L.ft4, L.ft3, L.t4, L.t3u], calculated: [L.fti], plausible: plausibleThyroid },
  {
    measured: [L.iron, L.tibc],
    calculated: [L.ironSat],
    plausible: (v) => {
      const iron = num(v, L.iron);
      const tibc = num(v, L.tibc);
      return iron === undefined || tibc === undefined || iron <= 0.95 * tibc;
    },
  },
  { measured: [L.vitdTotal, L.vitd2], calculated: [L.vitd3], propose: proposeVitaminD },
  {
    measured: [L.bili, L.biliDirect],
    calculated: [],
    plausible: (v) => {
      const total = num(v, L.bili);
      const direct = num(v, L.biliDirect);
      return total === undefined || direct === undefined || direct <= total - 0.1 + 1e-9;
    },
  },
  { measured: RED, calculated: [L.mcv, L.mch, L.mchc], prepare: prepareRed, propose: proposeRed, plausible: plausibleRed },
  {
    measured: [L.wbc, ...LINES.map((l) => l.pct)],
    calculated: LINES.map((l) => l.abs),
    propose: proposeWhite,
    plausible: plausibleWhite,
  },
];

/** Each remaining measured numeric analyte is a group of its own. */
const ALL_GROUPS: Group[] = (() => {
  const grouped = new Set(GROUPS.flatMap((g) => [...g.measured, ...g.calculated]));
  const singles = ORDER.filter((l) => !grouped.has(l) && !P[l]!.qualitative && !P[l]!.calculatedFrom).map((l) => ({ measured: [l], calculated: [] }));
  return [...GROUPS, ...singles];
})();

/** Calculated values from the printed (rounded) inputs, rounded in turn; null when not calculable. */
function calculate(calculated: string[], v: Values, patient: Patient): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const c of calculated) {
    const p = P[c]!;
    const inputs = p.calculatedFrom!.map((i) => [i, v.get(i)] as const);
    if (inputs.some(([, m]) => m === undefined)) continue;
    const values: number[] = [];
    let calculable = true;
    for (const [i, m] of inputs) {
      if (!m!.censored) values.push(m!.value);
      else if (m!.censored === 'below' && p.zeroWhenUndetectable?.includes(i)) values.push(0);
      else calculable = false;
    }
    const raw = calculable ? p.formula!(values, patient) : null;
    out.set(c, raw === null || !Number.isFinite(raw) || raw < 0 ? null : roundTo(raw, p.decimals));
  }
  return out;
}

function meetsSoft(v: Values, calc: Map<string, number | null>, ctx: Ctx): boolean {
  for (const [l, allowed] of ctx.soft) {
    const m = v.get(l);
    const x = m ? (m.censored ? undefined : m.value) : calc.get(l);
    if (x === undefined || x === null) continue;
    if (!allowed.has(interpretValue(l, x, ctx.patient))) return false;
  }
  return true;
}

function runGroup(g: Group, ctx: Ctx): { v: Values; calc: Map<string, number | null> } {
  const propose = g.propose ?? independent(g.measured);
  let fallback: { v: Values; calc: Map<string, number | null> } | undefined;
  let last: { v: Values; calc: Map<string, number | null> } | undefined;
  // A group whose every value is already printed has nothing to redraw.
  const attempts = g.measured.every((l) => !ctx.needed.has(l) || ctx.fixed.has(l)) ? 1 : MAX_ATTEMPTS;
  for (let i = 0; i < attempts; i++) {
    const v = propose(ctx);
    for (const l of g.measured) {
      const kept = ctx.fixed.get(l);
      if (kept && ctx.needed.has(l)) v.set(l, kept);
    }
    const calc = calculate(g.calculated, v, ctx.patient);
    last = { v, calc };
    if (g.plausible && !g.plausible(v, calc, ctx)) continue;
    if (meetsSoft(v, calc, ctx)) return last;
    fallback ??= last;
  }
  // Only contradictory wants get here: plausible beats wanted, and a want beats plausibility.
  return fallback ?? last!;
}

// ---------------------------------------------------------------------------------------------

function printed(p: AnalyteProfile, m: Measured, patient: Patient): SimulatedValue {
  const range = referenceRange(p.loinc, patient);
  const text = m.value.toFixed(p.decimals);
  return {
    loinc: p.loinc,
    value: m.value,
    result: m.censored === 'below' ? `<${text}` : m.censored === 'above' ? `>${text}` : text,
    type: m.censored ? 'range' : 'numeric',
    unit: p.unit,
    range,
    interpretation: interpretValue(p.loinc, m.value, patient),
    isAboveMaxRange: range ? isAboveRange(range, m.value) : false,
    isBelowMinRange: range ? isBelowRange(range, m.value) : false,
  };
}

export function simulateValues(input: {
  loincs: string[];
  patient: Patient;
  rand: Rand;
  want?: Record<string, Want>;
  /** Measured values already printed (a partial report's), by LOINC: used as they are. */
  fixed?: Record<string, FixedValue>;
}): Map<string, SimulatedValue> {
  const { patient, rand } = input;
  const fixed = new Map<string, Measured>(
    Object.entries(input.fixed ?? {}).filter(([l]) => P[l] !== undefined && !P[l]!.calculatedFrom && !P[l]!.qualitative),
  );
  const requested = [...new Set(input.loincs)].filter((l) => P[l] !== undefined);
  const needed = new Set<string>();
  const need = (l: string) => {
    if (needed.has(l)) return;
    needed.add(l);
    for (const i of P[l]!.calculatedFrom ?? []) need(i);
  };
  requested.forEach(need);

  // Wants: on the analyte itself first, then carried from calculated results to their main input.
  const own = new Map<string, Want>();
  const calcWants = new Map<string, Level>();
  for (const [l, w] of Object.entries(input.want ?? {})) {
    const p = P[l];
    if (!p || !needed.has(l)) continue;
    if (!p.calculatedFrom) own.set(l, w);
    else if (isLevel(w)) calcWants.set(l, w);
  }
  const carried = new Map<string, Level>();
  for (const [c, w] of calcWants) {
    const main = P[c]!.calculatedFrom![0]!;
    const prev = carried.get(main);
    if (!prev || SEVERITY[w] > SEVERITY[prev]) carried.set(main, w);
  }
  const ordered = ORDER.filter((l) => needed.has(l));
  const explicit = new Map<string, Target>();
  const targets = new Map<string, Target>();
  for (const l of ordered) {
    const p = P[l]!;
    if (p.calculatedFrom) continue;
    const w = own.get(l) ?? carried.get(l);
    const t = w === undefined ? undefined : targetOf(p, w, patient);
    if (t !== undefined) explicit.set(l, t);
    // Only flaggable numeric analytes are abnormal by chance; a reactive screen never is.
    const chance = p.range !== undefined && !p.qualitative && rand() < MILD_SHARE ? 'mild' : 'normal';
    targets.set(l, t ?? chance);
  }

  const ctx: Ctx = { patient, rand, requested: new Set(requested), needed, explicit, targets, calcWants, soft: new Map(), fixed };
  const groups = ALL_GROUPS.filter((g) => g.measured.some((l) => needed.has(l)));
  for (const g of groups) g.prepare?.(ctx);
  for (const c of ordered) {
    const p = P[c]!;
    if (!p.calculatedFrom || p.range === undefined) continue;
    // From printed inputs the result is what it is: no redraw can change it.
    if (p.calculatedFrom.every((i) => fixed.has(i))) continue;
    const w = calcWants.get(c);
    const main = p.calculatedFrom[0]!;
    const mainTarget = P[main]!.range === undefined ? explicit.get(main) : undefined;
    if (w) ctx.soft.set(c, new Set(w === 'normal' ? ['normal'] : ['abnormal', 'critical']));
    else if (mainTarget) ctx.soft.set(c, allowedFor(mainTarget)!);
    else if (ctx.requested.has(c) && p.calculatedFrom.every((i) => targets.get(i) === 'normal')) ctx.soft.set(c, new Set(['normal']));
  }

  const measured: Values = new Map();
  const calculated = new Map<string, number | null>();
  for (const g of groups) {
    const { v, calc } = runGroup(g, ctx);
    v.forEach((m, l) => measured.set(l, m));
    calc.forEach((x, l) => calculated.set(l, x));
  }

  const out = new Map<string, SimulatedValue>();
  for (const l of input.loincs) {
    const p = P[l];
    if (!p || out.has(l)) continue;
    if (p.qualitative) {
      const reactive = targets.get(l) === 'abnormal';
      out.set(l, {
        loinc: l,
        value: null,
        result: reactive ? p.qualitative.abnormal[0]! : p.qualitative.normal,
        type: 'coded_value',
        unit: p.unit,
        range: referenceRange(l, patient),
        interpretation: reactive ? 'abnormal' : 'normal',
        isAboveMaxRange: false,
        isBelowMinRange: false,
      });
    } else if (p.calculatedFrom) {
      const x = calculated.get(l);
      if (x !== undefined && x !== null) out.set(l, printed(p, { value: x }, patient));
    } else {
      const m = measured.get(l);
      if (m) out.set(l, printed(p, m, patient));
    }
  }
  return out;
}

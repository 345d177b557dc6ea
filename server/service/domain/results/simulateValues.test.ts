import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ANALYTE_PROFILES, ckdEpi2021, interpretValue, referenceRange, type Patient, type ReferenceRange, type Sex } from './analytes';
import { criticalCapable, roundTo, seededRandom, simulateValues, type SimulatedValue, type Want } from './simulateValues';

// The catalogue's results, read from its source: the profiles must print exactly its units.
const catalogueText = readFileSync(new URL('../../seed/labCatalogue.ts', import.meta.url), 'utf8');
const CATALOGUE = [...catalogueText.matchAll(/^\s+\w+: \{ label: '([^']+)', loinc: '([^']+)', loincName: '[^']*', unit: (null|'[^']*')/gm)].map((m) => ({
  label: m[1]!,
  loinc: m[2]!,
  unit: m[3] === 'null' ? null : m[3]!.slice(1, -1),
}));
const QUALITATIVE = ['56888-1', '13955-0', '20507-0'];
// The catalogue lists the qualitative screens too: each code once.
const ALL = [...new Set([...CATALOGUE.map((c) => c.loinc), ...QUALITATIVE])];

const P = ANALYTE_PROFILES;
const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);
const PATIENTS: Patient[] = [
  { sex: 'female', ageYears: 25 },
  { sex: 'female', ageYears: 70 },
  { sex: 'male', ageYears: 25 },
  { sex: 'male', ageYears: 70 },
];
const SEXES: Sex[] = ['female', 'male', 'other', 'unknown'];
const AGES = [18, 22, 30, 40, 49, 50, 51, 60, 70, 80, 95];

const isCalculated = (l: string) => P[l]!.calculatedFrom !== undefined;
const isQualitative = (l: string) => P[l]!.qualitative !== undefined;
const hasRange = (l: string) => P[l]!.range !== undefined;
const MEASURED_RANGED = ALL.filter((l) => !isCalculated(l) && !isQualitative(l) && hasRange(l));
const CALCULATED = ALL.filter(isCalculated);
const CAPABLE = ALL.filter((l) => P[l]!.critical !== undefined && !isCalculated(l));

/** Inside a printed range, by the printed convention: two-sided inclusive, one-sided exclusive. */
function inside(r: ReferenceRange, x: number): boolean {
  if (r.low !== undefined && r.high !== undefined) return x >= r.low && x <= r.high;
  if (r.high !== undefined) return x < r.high;
  if (r.low !== undefined) return x > r.low;
  return true;
}

/**
 * Runs `assertion` only when the plain check `ok` fails. The loops below make about a million
 * assertions (every value of 300 seeds × 4 patients × every analyte), and building an `expect` for
 * each was most of this file's time. `ok` is the assertion's own test or a stricter one
 * (`Object.is` for toBe, `isDeepStrictEqual` for toEqual), so nothing passes that the assertion
 * would fail, and a failure is reported by the assertion itself, message and all.
 */
function unless(ok: boolean, assertion: () => void) {
  if (!ok) assertion();
}

function one(loinc: string, patient: Patient, seed: number, want?: Want): Map<string, SimulatedValue> {
  return simulateValues({ loincs: [loinc], patient, rand: seededRandom(seed), want: want ? { [loinc]: want } : undefined });
}

function expectPrinted(v: SimulatedValue, patient: Patient) {
  const p = P[v.loinc]!;
  const digits = v.result.replace(/^[<>]/, '');
  const grid = p.decimals === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${p.decimals}}$`);
  unless(grid.test(digits), () => expect(digits, `${p.label} "${v.result}"`).toMatch(grid));
  unless(Object.is(Number(digits), v.value), () => expect(Number(digits)).toBe(v.value));
  unless(Object.is(v.unit, p.unit), () => expect(v.unit).toBe(p.unit));
  const type = /^[<>]/.test(v.result) ? 'range' : 'numeric';
  unless(Object.is(v.type, type), () => expect(v.type).toBe(type));
  const range = referenceRange(v.loinc, patient);
  unless(isDeepStrictEqual(v.range, range), () => expect(v.range).toEqual(range));
  // The flags and the interpretation come from the printed value.
  const interpretation = interpretValue(v.loinc, v.value!, patient);
  unless(Object.is(v.interpretation, interpretation), () => expect(v.interpretation).toBe(interpretation));
  if (v.range) {
    const r = v.range;
    const below = r.low !== undefined && (r.high !== undefined ? v.value! < r.low : v.value! <= r.low);
    const above = r.high !== undefined && (r.low !== undefined ? v.value! > r.high : v.value! >= r.high);
    unless(Object.is(v.isBelowMinRange, below), () => expect(v.isBelowMinRange, `${p.label} ${v.result} vs ${r.text}`).toBe(below));
    unless(Object.is(v.isAboveMaxRange, above), () => expect(v.isAboveMaxRange, `${p.label} ${v.result} vs ${r.text}`).toBe(above));
  } else {
    const flags = [v.isBelowMinRange, v.isAboveMaxRange, v.interpretation];
    unless(isDeepStrictEqual(flags, [false, false, 'normal']), () => expect(flags).toEqual([false, false, 'normal']));
  }
}

describe('profiles', () => {
  it('cover every catalogue result with its exact unit, plus the three qualitative screens', () => {
    expect(CATALOGUE.length).toBe([...catalogueText.matchAll(/ loinc: '/g)].length);
    expect(CATALOGUE.length).toBeGreaterThan(70);
    for (const c of CATALOGUE) {
      expect(P[c.loinc], c.label).toBeDefined();
      expect(P[c.loinc]!.unit, c.label).toBe(c.unit);
      expect(P[c.loinc]!.label).toBe(c.label);
    }
    for (const l of QUALITATIVE) expect(P[l]).toMatchObject({ unit: null, qualitative: { normal: 'Non-Reactive', abnormal: ['Reactive'] } });
    expect(Object.keys(P).sort()).toEqual([...ALL].sort());
  });

  it('print ranges, measuring ranges and critical limits on the result grid, with critical limits beyond every reference range', () => {
    const onGrid = (x: number, d: number) => roundTo(x, d) === x;
    for (const l of ALL.filter((x) => !isQualitative(x))) {
      const p = P[l]!;
      if (p.reportable) {
        expect(p.reportable.every((x) => onGrid(x, p.decimals)), p.label).toBe(true);
        expect(p.reportable[0]).toBeLessThan(p.reportable[1]);
      }
      if (p.critical) {
        expect(p.reportable, p.label).toBeDefined();
        if (p.critical.low !== undefined) expect(p.critical.low).toBeGreaterThan(p.reportable![0]);
        if (p.critical.high !== undefined) expect(p.critical.high).toBeLessThan(p.reportable![1]);
      }
      if (!isCalculated(l) && hasRange(l)) expect(p.reportable, `${p.label} measured without a measuring range`).toBeDefined();
      for (const sex of SEXES) {
        for (const ageYears of AGES) {
          const r = referenceRange(l, { sex, ageYears });
          if (!r) continue;
          for (const x of [r.low, r.high]) if (x !== undefined) expect(onGrid(x, p.decimals), `${p.label} ${r.text}`).toBe(true);
          if (p.critical?.low !== undefined) expect(p.critical.low, p.label).toBeLessThan(r.low!);
          if (p.critical?.high !== undefined) expect(p.critical.high, p.label).toBeGreaterThan(r.high!);
        }
      }
    }
  });

  it('give other and unknown sex the union of the female and male ranges', () => {
    for (const l of ALL) {
      // Normal values as inclusive bounds on the grid: "<41" and "10-40" both end at 40 for integers.
      const step = 10 ** -P[l]!.decimals;
      const span = (r: ReferenceRange | null) => {
        const two = r?.low !== undefined && r?.high !== undefined;
        return [r?.low === undefined ? -Infinity : two ? r.low : roundTo(r.low + step, 2), r?.high === undefined ? Infinity : two ? r.high : roundTo(r.high - step, 2)];
      };
      for (const ageYears of AGES) {
        const other = referenceRange(l, { sex: 'other', ageYears });
        expect(referenceRange(l, { sex: 'unknown', ageYears })).toEqual(other);
        const [lo, hi] = span(other);
        for (const sex of ['female', 'male'] as const) {
          const [l2, h2] = span(referenceRange(l, { sex, ageYears }));
          expect(lo, `${l} ${sex} ${ageYears}`).toBeLessThanOrEqual(l2!);
          expect(hi, `${l} ${sex} ${ageYears}`).toBeGreaterThanOrEqual(h2!);
        }
        // The widest: each bound comes from one of the sexes.
        const f = span(referenceRange(l, { sex: 'female', ageYears }));
        const m = span(referenceRange(l, { sex: 'male', ageYears }));
        expect([lo, hi]).toEqual([Math.min(f[0]!, m[0]!), Math.max(f[1]!, m[1]!)]);
      }
    }
  });

  it('split ranges by sex and age where labs do', () => {
    const text = (l: string, sex: Sex, ageYears: number) => referenceRange(l, { sex, ageYears })?.text;
    expect(text('718-7', 'female', 40)).toBe('11.1-15.9');
    expect(text('718-7', 'male', 40)).toBe('13.0-17.7');
    expect(text('718-7', 'unknown', 40)).toBe('11.1-17.7');
    expect(text('2160-0', 'female', 40)).not.toBe(text('2160-0', 'male', 40));
    expect(text('2085-9', 'female', 40)).toBe('>49');
    expect(text('2085-9', 'male', 40)).toBe('>39');
    expect(text('2276-4', 'female', 30)).toBe('16-154');
    expect(text('2276-4', 'female', 60)).toBe('16-232');
    expect(text('2243-4', 'female', 30)).toBe('15-350');
    expect(text('2243-4', 'female', 60)).toBe('<31');
    expect(text('2191-5', 'female', 30)).toBe('98.8-340.0');
    expect(text('2191-5', 'female', 80)).toBe('12.0-154.0');
    expect(text('2191-5', 'male', 80)).toBe('16.2-123.0');
    expect(text('2191-5', 'male', 16)).toBe('70.2-492.0'); // youngest band below 18
    expect(text('98979-8', 'male', 30)).toBe('>59');
    expect(text('56888-1', 'male', 30)).toBe('Non-Reactive');
    expect(referenceRange('770-8', { sex: 'male', ageYears: 30 })).toBeNull(); // differential % is not flagged
    expect(referenceRange('no-such', { sex: 'male', ageYears: 30 })).toBeNull();
  });
});

describe('interpretValue', () => {
  const f: Patient = { sex: 'female', ageYears: 40 };
  const m: Patient = { sex: 'male', ageYears: 40 };
  it('flags by the printed range and calls critical limits inclusively', () => {
    expect(['2.8', '2.9', '3.4', '3.5', '5.3', '5.4', '6.1', '6.2'].map((x) => interpretValue('2823-3', Number(x), f))).toEqual([
      'critical',
      'abnormal',
      'abnormal',
      'normal',
      'normal',
      'abnormal',
      'abnormal',
      'critical',
    ]);
    expect([199, 200].map((x) => interpretValue('2093-3', x, f))).toEqual(['normal', 'abnormal']);
    expect([39, 40, 49, 50].map((x) => interpretValue('2085-9', x, m))).toEqual(['abnormal', 'normal', 'normal', 'normal']);
    expect([49, 50].map((x) => interpretValue('2085-9', x, f))).toEqual(['abnormal', 'normal']);
    expect([50, 51, 64, 65, 99, 100, 449, 450].map((x) => interpretValue('2345-7', x, f))).toEqual([
      'critical',
      'abnormal',
      'abnormal',
      'normal',
      'normal',
      'abnormal',
      'abnormal',
      'critical',
    ]);
    expect([15.9, 16.0].map((x) => interpretValue('718-7', x, f))).toEqual(['normal', 'abnormal']);
    expect(interpretValue('718-7', 16.0, m)).toBe('normal');
    expect(interpretValue('98979-8', 59, m)).toBe('abnormal');
    expect(interpretValue('98979-8', 60, m)).toBe('normal');
    expect(interpretValue('2160-0', 7.0, m)).toBe('critical');
    expect(interpretValue('3016-3', 150, m)).toBe('abnormal'); // no critical limit for TSH
    expect(interpretValue('no-such', 5, m)).toBe('normal');
  });
});

describe('CKD-EPI 2021', () => {
  it('matches the published equation', () => {
    expect(ckdEpi2021(1.0, 50, 'male')).toBeCloseTo(91.69, 2);
    expect(Math.round(ckdEpi2021(1.0, 50, 'male'))).toBe(92);
    expect(ckdEpi2021(1.0, 50, 'female')).toBeCloseTo(68.63, 2);
    expect(Math.round(ckdEpi2021(1.0, 50, 'female'))).toBe(69);
    // Below kappa the alpha exponent applies: 142 * (0.6/0.7)^-0.241 * 0.9938^40 * 1.012.
    expect(ckdEpi2021(0.6, 40, 'female')).toBeCloseTo(142 * (0.6 / 0.7) ** -0.241 * 0.9938 ** 40 * 1.012, 8);
    expect(ckdEpi2021(0.7, 40, 'male')).toBeCloseTo(142 * (0.7 / 0.9) ** -0.302 * 0.9938 ** 40, 8);
    expect(ckdEpi2021(1.2, 60, 'other')).toBe(ckdEpi2021(1.2, 60, 'female'));
    expect(ckdEpi2021(1.2, 60, 'unknown')).toBe(ckdEpi2021(1.2, 60, 'female'));
  });

  it('falls with age for the same creatinine, and a normal creatinine can flag an old patient', () => {
    const byAge = [25, 45, 65, 85].map((a) => ckdEpi2021(1.0, a, 'female'));
    expect(byAge).toEqual([...byAge].sort((a, b) => b - a));
    expect(interpretValue('98979-8', Math.round(ckdEpi2021(1.0, 25, 'female')), { sex: 'female', ageYears: 25 })).toBe('normal');
    expect(interpretValue('98979-8', Math.round(ckdEpi2021(1.0, 85, 'female')), { sex: 'female', ageYears: 85 })).toBe('abnormal');
  });
});

describe('simulateValues by analyte', () => {
  it.each(ALL)('%s: a normal want gives a normal value inside the range', (loinc) => {
    for (const patient of PATIENTS) {
      for (const seed of SEEDS) {
        const out = one(loinc, patient, seed, 'normal');
        const v = out.get(loinc)!;
        unless(v !== undefined, () => expect(v, `${loinc} seed ${seed}`).toBeDefined());
        const keys = [...out.keys()];
        unless(isDeepStrictEqual(keys, [loinc]), () => expect(keys).toEqual([loinc])); // internal inputs stay internal
        if (isQualitative(loinc)) {
          const screen = { loinc, value: null, result: 'Non-Reactive', type: 'coded_value', unit: null, range: { text: 'Non-Reactive' }, interpretation: 'normal', isAboveMaxRange: false, isBelowMinRange: false };
          unless(isDeepStrictEqual(v, screen), () => expect(v).toEqual(screen));
          continue;
        }
        expectPrinted(v, patient);
        unless(v.interpretation === 'normal', () => expect(v.interpretation, `${P[loinc]!.label} ${v.result} (${v.range?.text}) seed ${seed}`).toBe('normal'));
        if (v.range) {
          const r = v.range;
          unless(inside(r, v.value!), () => expect(inside(r, v.value!), `${v.result} in ${r.text}`).toBe(true));
        }
        if (isCalculated(loinc)) {
          // Applied to the main input too; seen by asking for both.
          const main = P[loinc]!.calculatedFrom![0]!;
          const both = simulateValues({ loincs: [loinc, main], patient, rand: seededRandom(seed), want: { [loinc]: 'normal' } });
          unless(Object.is(both.get(loinc)!.value, v.value), () => expect(both.get(loinc)!.value).toBe(v.value));
          unless(both.get(main)!.interpretation === 'normal', () => expect(both.get(main)!.interpretation).toBe('normal'));
        }
      }
    }
  });

  it.each(ALL)('%s: an abnormal want gives an abnormal, non-critical value (calculated: its main input too)', (loinc) => {
    for (const patient of PATIENTS) {
      for (const seed of SEEDS) {
        const p = P[loinc]!;
        if (isQualitative(loinc)) {
          const r = one(loinc, patient, seed, 'abnormal').get(loinc);
          unless(
            r?.result === 'Reactive' && r.interpretation === 'abnormal' && r.type === 'coded_value' && r.value === null,
            () => expect(r).toMatchObject({ result: 'Reactive', interpretation: 'abnormal', type: 'coded_value', value: null }),
          );
          continue;
        }
        const main = p.calculatedFrom?.[0];
        const out = simulateValues({ loincs: main ? [loinc, main] : [loinc], patient, rand: seededRandom(seed), want: { [loinc]: 'abnormal' } });
        const v = out.get(loinc)!;
        expectPrinted(v, patient);
        if (!hasRange(loinc)) {
          // Range-less results (D2, D3, eAG, differential %) cannot be flagged; a calculated one moves its input.
          if (main && hasRange(main)) unless(out.get(main)!.interpretation === 'abnormal', () => expect(out.get(main)!.interpretation).toBe('abnormal'));
          continue;
        }
        unless(v.interpretation === 'abnormal', () => expect(v.interpretation, `${p.label} ${v.result} (${v.range?.text}) seed ${seed}`).toBe('abnormal'));
        unless(v.type === 'numeric', () => expect(v.type).toBe('numeric'));
        unless(v.isAboveMaxRange || v.isBelowMinRange, () => expect(v.isAboveMaxRange || v.isBelowMinRange).toBe(true));
        const reportable = p.reportable;
        if (reportable) {
          const within = v.value! >= reportable[0] && v.value! <= reportable[1];
          unless(within, () => expect(within).toBe(true));
        }
        if (main && hasRange(main)) {
          unless(out.get(main)!.interpretation === 'abnormal', () => expect(out.get(main)!.interpretation, `${P[main]!.label} for ${p.label}`).toBe('abnormal'));
        }
      }
    }
  });

  it.each(ALL.filter((l) => !isQualitative(l) && hasRange(l)))('%s: a critical want gives a critical value where the analyte can be critical, else abnormal', (loinc) => {
    const p = P[loinc]!;
    const main = p.calculatedFrom?.[0];
    for (const patient of PATIENTS) {
      for (const seed of SEEDS) {
        const out = simulateValues({ loincs: main ? [loinc, main] : [loinc], patient, rand: seededRandom(seed), want: { [loinc]: 'critical' } });
        const v = out.get(loinc)!;
        expectPrinted(v, patient);
        unless(v.type === 'numeric', () => expect(v.type).toBe('numeric'));
        if (CAPABLE.includes(loinc)) {
          unless(v.interpretation === 'critical', () => expect(v.interpretation, `${p.label} ${v.result} seed ${seed}`).toBe('critical'));
          const within = v.value! >= p.reportable![0] && v.value! <= p.reportable![1];
          unless(within, () => expect(within).toBe(true));
        } else if (main && CAPABLE.includes(main)) {
          unless(out.get(main)!.interpretation === 'critical', () => expect(out.get(main)!.interpretation).toBe('critical'));
          unless(v.interpretation !== 'normal', () => expect(v.interpretation).not.toBe('normal'));
        } else {
          unless(v.interpretation === 'abnormal', () => expect(v.interpretation).toBe('abnormal'));
        }
      }
    }
  });

  it.each(ALL.filter((l) => !isQualitative(l) && !isCalculated(l) && P[l]!.reportable))('%s: beyond the measuring range prints "<lo" / ">hi" with the limit as value', (loinc) => {
    const p = P[loinc]!;
    for (const patient of PATIENTS) {
      const below = one(loinc, patient, 1, 'below_reportable').get(loinc)!;
      const above = one(loinc, patient, 1, 'above_reportable').get(loinc)!;
      expect(below).toMatchObject({ type: 'range', value: p.reportable![0], result: `<${p.reportable![0].toFixed(p.decimals)}` });
      expect(above).toMatchObject({ type: 'range', value: p.reportable![1], result: `>${p.reportable![1].toFixed(p.decimals)}` });
      expectPrinted(below, patient);
      expectPrinted(above, patient);
    }
  });

  it('interprets measuring-range results from the limit', () => {
    const patient: Patient = { sex: 'male', ageYears: 40 };
    expect(one('30522-7', patient, 1, 'below_reportable').get('30522-7')).toMatchObject({ result: '<0.3', interpretation: 'normal', isBelowMinRange: false });
    expect(one('2345-7', patient, 1, 'above_reportable').get('2345-7')).toMatchObject({ result: '>750', interpretation: 'critical', isAboveMaxRange: true });
    expect(one('2160-0', patient, 1, 'below_reportable').get('2160-0')).toMatchObject({ result: '<0.15', interpretation: 'abnormal', isBelowMinRange: true });
  });

  it('leaves an unwanted analyte normal about 94% of the time, mildly abnormal otherwise, never critical', () => {
    const seeds = Array.from({ length: 1000 }, (_, i) => i + 1);
    for (const loinc of MEASURED_RANGED) {
      const patient = PATIENTS[loinc.length % PATIENTS.length]!;
      const seen = seeds.map((s) => one(loinc, patient, s).get(loinc)!);
      const abnormal = seen.filter((v) => v.interpretation === 'abnormal').length / seeds.length;
      expect(seen.some((v) => v.interpretation === 'critical'), P[loinc]!.label).toBe(false);
      expect(abnormal, P[loinc]!.label).toBeGreaterThan(0.025);
      expect(abnormal, P[loinc]!.label).toBeLessThan(0.11);
    }
    for (const loinc of QUALITATIVE) expect(seeds.every((s) => one(loinc, PATIENTS[0]!, s).get(loinc)!.result === 'Non-Reactive')).toBe(true);
  });

  it('draws normal values around the middle of the range, not at its edges', () => {
    for (const loinc of MEASURED_RANGED) {
      const p = P[loinc]!;
      if (p.sim?.undetectable) continue;
      const patient = { sex: 'male' as const, ageYears: 45 };
      const values = SEEDS.map((s) => one(loinc, patient, s, 'normal').get(loinc)!.value!);
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      const scale = (x: number) => (p.sim?.log ? Math.log(x) : x);
      const pos = values.map((x) => (scale(x) - scale(lo)) / (scale(hi) - scale(lo)));
      const middle = pos.filter((x) => x >= 0.2 && x <= 0.8).length / pos.length;
      expect(middle, p.label).toBeGreaterThan(0.6);
    }
    const glucose = SEEDS.map((s) => one('2345-7', PATIENTS[0]!, s, 'normal').get('2345-7')!.value!);
    const mean = glucose.reduce((a, b) => a + b, 0) / glucose.length;
    expect(mean).toBeGreaterThan(80);
    expect(mean).toBeLessThan(92);
  });
});

describe('calculated results', () => {
  const WANTS: Want[] = ['normal', 'abnormal', 'critical', 'below_reportable', 'above_reportable'];

  /** Random wants on a random fifth of the analytes. */
  function randomWants(seed: number): Record<string, Want> {
    const r = seededRandom(seed * 7919);
    const want: Record<string, Want> = {};
    for (const l of ALL) if (r() < 0.2) want[l] = WANTS[Math.floor(r() * (r() < 0.7 ? 3 : 5))]!;
    return want;
  }

  it('agree with their printed inputs', () => {
    let ldlOmitted = 0;
    let d2Detected = 0;
    for (const seed of SEEDS) {
      for (const patient of [...PATIENTS, { sex: 'unknown' as const, ageYears: 50 }]) {
        const want = seed % 3 === 0 ? undefined : randomWants(seed);
        const out = simulateValues({ loincs: ALL, patient, rand: seededRandom(seed), want });
        out.forEach((v) => (v.type === 'coded_value' ? undefined : expectPrinted(v, patient)));
        const x = (l: string) => out.get(l)?.value ?? undefined;
        const printedNumber = (l: string) => (out.get(l)?.type === 'numeric' ? x(l) : undefined);
        for (const c of CALCULATED) {
          const p = P[c]!;
          const inputs = p.calculatedFrom!.map((i) => out.get(i));
          const v = out.get(c);
          const censored = inputs.some((i, k) => i?.type === 'range' && !(p.zeroWhenUndetectable?.includes(p.calculatedFrom![k]!) && i.result.startsWith('<')));
          if (censored) {
            unless(v === undefined, () => expect(v, `${p.label} from an input outside its measuring range`).toBeUndefined());
            continue;
          }
          if (c === '13457-7' && x('2571-8')! > 400) {
            unless(v === undefined, () => expect(v).toBeUndefined());
            ldlOmitted++;
            continue;
          }
          unless(v !== undefined, () => expect(v, `${p.label} seed ${seed}`).toBeDefined());
          const values = p.calculatedFrom!.map((i, k) => (inputs[k]!.type === 'range' ? 0 : x(i)!));
          const expected = roundTo(p.formula!(values, patient)!, p.decimals);
          unless(Object.is(v!.value, expected), () => expect(v!.value, `${p.label} from ${values.join(', ')}`).toBe(expected));
        }
        // The formulas by hand, as a reader checks them: within half a printed unit of the exact value.
        const near = (l: string, exact: number) => {
          const d = P[l]!.decimals;
          const off = Math.abs(x(l)! - exact);
          unless(off <= 0.5 * 10 ** -d + 1e-9, () => expect(off, `${P[l]!.label} ${x(l)} vs ${exact}`).toBeLessThanOrEqual(0.5 * 10 ** -d + 1e-9));
        };
        const [chol, hdl, trig, ldl] = ['2093-3', '2085-9', '2571-8', '13457-7'].map(printedNumber);
        if (ldl !== undefined) near('13457-7', chol! - hdl! - trig! / 5);
        expect(x('43396-1')).toBe(chol !== undefined && hdl !== undefined ? chol - hdl : x('43396-1'));
        const creat = printedNumber('2160-0');
        const [k, alpha] = patient.sex === 'male' ? [0.9, -0.302] : [0.7, -0.241];
        if (creat !== undefined) near('98979-8', 142 * Math.min(creat / k, 1) ** alpha * Math.max(creat / k, 1) ** -1.2 * 0.9938 ** patient.ageYears * (patient.sex === 'male' ? 1 : 1.012));
        const [tp, alb] = [printedNumber('2885-2'), printedNumber('1751-7')];
        if (tp !== undefined && alb !== undefined) {
          near('10834-0', tp - alb);
          near('1759-0', alb / (tp - alb));
          expect(tp - alb).toBeGreaterThanOrEqual(1.0 - 1e-9);
        }
        const a1c = printedNumber('4548-4');
        if (a1c !== undefined) near('27353-2', 28.7 * a1c - 46.7);
        const [iron, tibc] = [printedNumber('2498-4'), printedNumber('2500-7')];
        if (iron !== undefined && tibc !== undefined) {
          near('2502-3', (iron / tibc) * 100);
          if (!want?.['2498-4']?.endsWith('reportable')) expect(iron).toBeLessThanOrEqual(tibc);
        }
        const [hgb, hct, rbc] = ['718-7', '4544-3', '789-8'].map(printedNumber);
        if (hgb !== undefined && hct !== undefined && rbc !== undefined) {
          near('787-2', (hct / rbc) * 10);
          near('785-6', (hgb / rbc) * 10);
          near('786-4', (hgb / hct) * 100);
        }
        const [total, direct] = [printedNumber('1975-2'), printedNumber('1968-7')];
        if (total !== undefined && direct !== undefined && !want?.['1968-7']?.endsWith('reportable')) expect(direct).toBeLessThan(total);
        // Vitamin D: D3 + D2 = total, an undetectable D2 counting as zero.
        const d2 = out.get('1988-5')!;
        if (out.get('62292-8')!.type === 'numeric' && !want?.['1988-5']) {
          const d2Value = d2.type === 'range' ? 0 : d2.value!;
          if (d2.type === 'numeric') d2Detected++;
          expect(x('1989-3')! + d2Value).toBe(x('62292-8'));
        }
        // The differential: percentages add up to 100, counts to the WBC.
        const pcts = ['770-8', '736-9', '5905-5', '713-8', '706-2'];
        const abss = ['751-8', '731-0', '742-7', '711-2', '704-7'];
        const wbc = printedNumber('6690-2');
        if (wbc !== undefined) {
          expect(pcts.reduce((s, l) => s + x(l)!, 0)).toBe(100);
          pcts.forEach((l, i) => near(abss[i]!, (wbc * x(l)!) / 100));
          expect(Math.abs(abss.reduce((s, l) => s + x(l)!, 0) - wbc)).toBeLessThanOrEqual(0.25 + 1e-9);
        } else {
          for (const l of [...pcts, ...abss]) expect(out.has(l)).toBe(false);
        }
      }
    }
    expect(ldlOmitted).toBeGreaterThan(0);
    expect(d2Detected).toBeGreaterThan(0);
  });

  it('omit LDL above 400 mg/dL of triglycerides and keep it at or below', () => {
    let over = 0;
    for (const seed of SEEDS) {
      const out = simulateValues({ loincs: ['2093-3', '2085-9', '2571-8', '13457-7'], patient: PATIENTS[3]!, rand: seededRandom(seed), want: { '2571-8': 'abnormal' } });
      const tg = out.get('2571-8')!.value!;
      expect(out.has('13457-7'), `TG ${tg}`).toBe(tg <= 400);
      if (tg > 400) over++;
    }
    expect(over).toBeGreaterThan(10);
  });

  it('are simulated from inputs that were not asked for, and do not show them', () => {
    const patient: Patient = { sex: 'male', ageYears: 58 };
    for (const seed of SEEDS.slice(0, 50)) {
      const alone = simulateValues({ loincs: ['98979-8'], patient, rand: seededRandom(seed) });
      const withInput = simulateValues({ loincs: ['98979-8', '2160-0'], patient, rand: seededRandom(seed) });
      expect([...alone.keys()]).toEqual(['98979-8']);
      expect(alone.get('98979-8')).toEqual(withInput.get('98979-8'));
      expect(withInput.get('98979-8')!.value).toBe(Math.round(ckdEpi2021(withInput.get('2160-0')!.value!, 58, 'male')));
    }
  });

  it('are not reported for children (eGFR) or beyond a measuring range (the differential)', () => {
    expect(simulateValues({ loincs: ['98979-8', '2160-0'], patient: { sex: 'female', ageYears: 12 }, rand: seededRandom(1) }).has('98979-8')).toBe(false);
    const low = simulateValues({ loincs: ['6690-2', '770-8', '751-8'], patient: PATIENTS[0]!, rand: seededRandom(1), want: { '6690-2': 'below_reportable' } });
    expect([...low.keys()]).toEqual(['6690-2']);
    expect(low.get('6690-2')!.result).toBe('<0.1');
  });

  it('take a want through their main input, unless the input has its own', () => {
    const patient: Patient = { sex: 'female', ageYears: 40 };
    for (const seed of SEEDS.slice(0, 50)) {
      const out = simulateValues({ loincs: ['98979-8', '2160-0'], patient, rand: seededRandom(seed), want: { '98979-8': 'critical' } });
      expect(out.get('2160-0')!.interpretation).toBe('critical');
      const own = simulateValues({ loincs: ['98979-8', '2160-0'], patient, rand: seededRandom(seed), want: { '98979-8': 'abnormal', '2160-0': 'normal' } });
      expect(own.get('2160-0')!.interpretation).toBe('normal');
      // A measuring-range want has nothing to act on.
      const range = simulateValues({ loincs: ['98979-8', '2160-0'], patient, rand: seededRandom(seed), want: { '98979-8': 'above_reportable' } });
      expect(range.get('2160-0')!.type).toBe('numeric');
    }
  });

  it('keep red cells and thyroid results physiologically together', () => {
    const CBC = ['789-8', '718-7', '4544-3', '787-2', '785-6', '786-4'];
    for (const seed of SEEDS) {
      for (const patient of PATIENTS) {
        const out = simulateValues({ loincs: [...CBC, '3016-3', '3024-7'], patient, rand: seededRandom(seed), want: { '718-7': seed % 2 ? 'critical' : 'abnormal', '3016-3': 'abnormal' } });
        const mchc = out.get('786-4')!.value!;
        expect(mchc).toBeGreaterThanOrEqual(27);
        expect(mchc).toBeLessThanOrEqual(38);
        const tsh = out.get('3016-3')!;
        const ft4 = out.get('3024-7')!;
        if (tsh.isAboveMaxRange) expect(ft4.isAboveMaxRange).toBe(false);
        if (tsh.isBelowMinRange) expect(ft4.isBelowMinRange).toBe(false);
      }
    }
  });
});

describe('values already printed (fixed)', () => {
  it('are printed as they are, and the calculated results come from them', () => {
    const fixed = { '2093-3': { value: 212 }, '2085-9': { value: 47 }, '2571-8': { value: 133 } };
    for (const seed of SEEDS.slice(0, 50)) {
      const out = simulateValues({ loincs: ['2093-3', '2085-9', '2571-8', '13457-7', '9830-1', '43396-1'], patient: PATIENTS[1]!, rand: seededRandom(seed), fixed });
      expect(out.get('2093-3')!.result).toBe('212');
      expect(out.get('2085-9')!.result).toBe('47');
      expect(out.get('13457-7')!.value).toBe(Math.round(212 - 47 - 133 / 5));
      expect(out.get('43396-1')!.value).toBe(165);
      expect(out.get('9830-1')!.value).toBe(roundTo(212 / 47, 1));
    }
  });

  it('lead the values drawn with them: indices from a printed hemoglobin, a differential of a printed WBC, the D3 of a printed total', () => {
    for (const seed of SEEDS.slice(0, 50)) {
      const red = simulateValues({ loincs: ['718-7', '4544-3', '789-8', '786-4'], patient: PATIENTS[0]!, rand: seededRandom(seed), fixed: { '718-7': { value: 13.1 } } });
      expect(red.get('718-7')!.value).toBe(13.1);
      expect(red.get('786-4')!.value).toBe(roundTo((13.1 * 100) / red.get('4544-3')!.value!, 1));
      expect(red.get('786-4')!.value).toBeGreaterThanOrEqual(27);
      expect(red.get('786-4')!.value).toBeLessThanOrEqual(38);
      const white = simulateValues({ loincs: ['6690-2', '770-8', '751-8'], patient: PATIENTS[0]!, rand: seededRandom(seed), fixed: { '6690-2': { value: 6.4 } } });
      expect(white.get('751-8')!.value).toBe(roundTo((6.4 * white.get('770-8')!.value!) / 100, P['751-8']!.decimals));
      const d = simulateValues({ loincs: ['62292-8', '1989-3', '1988-5'], patient: PATIENTS[0]!, rand: seededRandom(seed), fixed: { '62292-8': { value: 38 } } });
      const d2 = d.get('1988-5')!;
      expect(d.get('1989-3')!.value).toBe(d2.type === 'range' ? 38 : 38 - d2.value!);
    }
  });

  it('keep their measuring-range censoring: a triglyceride ">1000" leaves LDL uncalculated', () => {
    const out = simulateValues({ loincs: ['2571-8', '13457-7', '43396-1'], patient: PATIENTS[2]!, rand: seededRandom(3), fixed: { '2571-8': { value: 1000, censored: 'above' } } });
    expect(out.get('2571-8')!.result).toBe('>1000');
    expect(out.has('13457-7')).toBe(false);
    expect(out.has('43396-1')).toBe(true);
  });
});

describe('simulateValues as a whole', () => {
  it('is deterministic for a seed and does not depend on the order of the codes', () => {
    const patient: Patient = { sex: 'male', ageYears: 33 };
    const a = simulateValues({ loincs: ALL, patient, rand: seededRandom(42), want: { '2823-3': 'critical' } });
    const b = simulateValues({ loincs: [...ALL].reverse(), patient, rand: seededRandom(42), want: { '2823-3': 'critical' } });
    const c = simulateValues({ loincs: ALL, patient, rand: seededRandom(43), want: { '2823-3': 'critical' } });
    expect([...b.keys()]).toEqual([...ALL].reverse().filter((l) => b.has(l)));
    expect(Object.fromEntries(b)).toEqual(Object.fromEntries(a));
    expect(Object.fromEntries(c)).not.toEqual(Object.fromEntries(a));
  });

  it('leaves unknown codes out without throwing, and ignores wants on them', () => {
    const out = simulateValues({ loincs: ['0000-0', '2345-7', '2345-7'], patient: PATIENTS[0]!, rand: seededRandom(1), want: { '0000-0': 'critical' } });
    expect([...out.keys()]).toEqual(['2345-7']);
    expect(simulateValues({ loincs: [], patient: PATIENTS[0]!, rand: seededRandom(1) }).size).toBe(0);
  });

  it('lists the critical-capable measured analytes', () => {
    expect(criticalCapable(ALL).sort()).toEqual(
      ['2345-7', '2823-3', '2951-2', '17861-6', '2028-9', '19123-9', '718-7', '4544-3', '777-3', '6690-2', '2160-0', '1975-2'].sort(),
    );
    expect(criticalCapable(['98979-8', '56888-1', '3016-3', 'nope', '2823-3', '2823-3'])).toEqual(['2823-3']);
  });
});

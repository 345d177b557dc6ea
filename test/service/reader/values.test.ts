import { describe, expect, it } from 'vitest';
import { compare, interpret } from '../../../server/service/reader/interpret';
import type { RawResult } from '../../../server/service/reader/tableReader';
import { flagKind, isDotNoise, isLeader, isXHeightWord, parseRange, parseValueCell } from '../../../server/service/reader/values';

describe('value cells', () => {
  it.each([
    ['6.8 H', '6.8', 'H'],
    ['6.8H', '6.8', 'H'],
    ['H 6.8', '6.8', 'H'],
    ['101 High', '101', 'High'],
    ['2.9 L', '2.9', 'L'],
    ['6.6HH', '6.6', 'HH'],
    ['<0.5', '<0.5', undefined],
    ['< 0.5', '<0.5', undefined],
    ['>90', '>90', undefined],
    ['1,234', '1,234', undefined],
    ['2.50', '2.50', undefined],
    ['0.0', '0.0', undefined],
  ])('%s -> value %s, flag %s', (cell, value, flag) => {
    const v = parseValueCell(cell);
    expect(v.value).toBe(value);
    expect(v.flag).toBe(flag);
    expect(v.problem).toBeUndefined();
  });

  it.each([
    ['Negative', 'Negative', undefined],
    ['Non-Reactive', 'Non-Reactive', undefined],
    ['Non Reactive', 'Non Reactive', undefined],
    ['NON-REACTIVE', 'NON-REACTIVE', undefined],
    ['Not Detected', 'Not Detected', undefined],
    ['Detected A', 'Detected', 'A'],
    ['Positive Abnormal', 'Positive', 'Abnormal'],
    ['Trace A', 'Trace', 'A'],
    ['1+A', '1+', 'A'],
    ['Yellow', 'Yellow', undefined],
  ])('qualitative %s -> %s, flag %s', (cell, value, flag) => {
    const v = parseValueCell(cell);
    expect(v.kind).toBe('qualitative');
    expect(v.value).toBe(value);
    expect(v.flag).toBe(flag);
  });

  it('reads a flag glued before the value ("H5.73"), as it reads one glued after it', () => {
    expect(parseValueCell('H5.73')).toMatchObject({ value: '5.73', kind: 'numeric', flag: 'H' });
    expect(parseValueCell('LL2.1')).toMatchObject({ value: '2.1', kind: 'numeric', flag: 'LL' });
    expect(parseValueCell('HbA1c')).toMatchObject({ kind: 'unparseable' });
  });

  it('keeps units printed after the value as trailing text', () => {
    expect(parseValueCell('95 mg/dL')).toMatchObject({ value: '95', trailing: 'mg/dL', kind: 'numeric' });
  });

  it('reads censored values, ratios and value ranges', () => {
    expect(parseValueCell('<0.5').kind).toBe('censored');
    expect(parseValueCell('1:160').kind).toBe('ratio');
    expect(parseValueCell('0-2')).toMatchObject({ value: '0-2', kind: 'range' });
  });

  it('marks what it cannot read', () => {
    expect(parseValueCell('See Note').kind).toBe('unparseable');
    expect(parseValueCell('lrg').kind).toBe('unparseable');
    expect(parseValueCell('6.8 5.9').problem).toMatch(/more than one number/);
    expect(parseValueCell('').kind).toBe('unparseable');
  });
});

describe('flags', () => {
  it.each([
    ['H', 'H'], ['High', 'H'], ['(H)', 'H'], ['L', 'L'], ['Low', 'L'], ['A', 'A'], ['Abnormal', 'A'],
    ['HH', 'HH'], ['LL', 'LL'], ['Critical', 'C'], ['Critical High', 'HH'], ['N', 'N'],
    // A status column's words, in every spelling the table reader takes for a status.
    ['Above range', 'H'], ['Below Range', 'L'], ['In range', 'N'], ['Within the reference range', 'N'], ['Outside normal range', 'A'],
  ])('%s means %s', (flag, kind) => expect(flagKind(flag)).toBe(kind));

  it('is undefined for words that are not flags', () => expect(flagKind('mg/dL')).toBeUndefined());
});

describe('reference ranges', () => {
  it.each([
    ['3.5-5.2', 3.5, 5.2],
    ['3.5 - 5.2', 3.5, 5.2],
    ['0.0-0.4', 0, 0.4],
    ['1,500-7,800', 1500, 7800],
    ['3.5 to 5.2', 3.5, 5.2],
    ['(3.5-5.2)', 3.5, 5.2],
    ['[3.5 - 5.2]', 3.5, 5.2],
    ['{3.5-5.2}', 3.5, 5.2],
  ])('%s -> %s..%s', (text, min, max) => expect(parseRange(text)).toMatchObject({ min, max, minInclusive: true, maxInclusive: true }));

  it('reads one-sided ranges with their inclusiveness', () => {
    expect(parseRange('<200')).toMatchObject({ max: 200, maxInclusive: false });
    expect(parseRange('<200').min).toBeUndefined();
    expect(parseRange('<=200')).toMatchObject({ max: 200, maxInclusive: true });
    expect(parseRange('>39')).toMatchObject({ min: 39, minInclusive: false });
    expect(parseRange('>=60')).toMatchObject({ min: 60, minInclusive: true });
    expect(parseRange('≥60')).toMatchObject({ min: 60, minInclusive: true });
    expect(parseRange('> OR = 60')).toMatchObject({ min: 60, minInclusive: true });
    expect(parseRange('(<5.2)')).toMatchObject({ max: 5.2, maxInclusive: false });
    expect(parseRange('[>=60]')).toMatchObject({ min: 60, minInclusive: true });
  });

  it('splits units printed after the range', () => {
    expect(parseRange('3.8-10.8 Thousand/uL')).toMatchObject({ min: 3.8, max: 10.8, units: 'Thousand/uL' });
    expect(parseRange('<100 mg/dL (calc)')).toMatchObject({ max: 100, units: 'mg/dL' });
    const unitOnly = parseRange('%');
    expect(unitOnly.units).toBe('%');
    expect([unitOnly.min, unitOnly.max]).toEqual([undefined, undefined]);
  });

  it('keeps qualitative expectations and unknown text', () => {
    expect(parseRange('Negative')).toMatchObject({ expected: 'Negative' });
    expect(parseRange('NON-REACTIVE')).toMatchObject({ expected: 'NON-REACTIVE' });
    const none = parseRange('Not Estab.');
    expect(none.text).toBe('Not Estab.');
    expect([none.min, none.max, none.units, none.expected]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('compares values, including censored ones and exclusive bounds', () => {
    const r = parseRange('3.5-5.2');
    expect(compare(5.2, undefined, r)).toEqual({ above: false, below: false });
    expect(compare(5.3, undefined, r)).toEqual({ above: true, below: false });
    expect(compare(200, undefined, parseRange('<200'))).toEqual({ above: true });
    expect(compare(0.5, '<', parseRange('0.0-1.2'))).toEqual({ above: false, below: false });
    expect(compare(0.5, '<', parseRange('0.2-1.2'))).toEqual({ above: false });
    expect(compare(60, '>', parseRange('>59'))).toEqual({ below: false });
  });
});

describe('OCR-shaped ranges', () => {
  it('reads units glued to the range', () => {
    expect(parseRange('11.0-15.0%')).toMatchObject({ min: 11, max: 15, units: '%' });
    expect(parseRange('<100mg/dL')).toMatchObject({ max: 100, units: 'mg/dL' });
    expect(parseRange('150-450 10*3/uL')).toMatchObject({ min: 150, max: 450, units: '10*3/uL' });
  });
});

describe('titers', () => {
  const row = (value: string, rangeText: string, flag?: string): RawResult => ({
    testName: 'ANA Titer',
    value: parseValueCell(value),
    rangeText,
    flag,
    page: 1,
    column: 'result',
    problems: [],
    source: 'text',
  });

  it('reads a titer reference as a dilution, not as a number with the rest as a unit', () => {
    expect(parseRange('<1:40')).toMatchObject({ titer: { op: '<', denominator: 40 } });
    expect(parseRange('<1:40').units).toBeUndefined();
    expect(parseRange('<1:40').max).toBeUndefined();
    expect(parseRange('1:80')).toMatchObject({ titer: { op: '=', denominator: 80 } });
  });

  it('compares a titer with a titer reference: more dilutions that still react are above it', () => {
    expect(interpret(row('1:640', '<1:40', 'A')).result).toMatchObject({ interpretation: 'abnormal', is_above_max_range: true });
    expect(interpret(row('1:20', '<1:40')).result).toMatchObject({ interpretation: 'normal', is_above_max_range: false });
    expect(interpret(row('1:40', '<1:40')).result).toMatchObject({ is_above_max_range: true });
    expect(interpret(row('1:40', '<1:40')).result).not.toHaveProperty('max_reference_range');
  });
});

describe('leaders as OCR reads them', () => {
  it('a run of marks with the letters OCR made of the rest of the line is a leader', () => {
    for (const t of ['.......', '---c-r-mmmmviim', '---------momoo', '-+---——c——-==--']) expect(isLeader(t), t).toBe(true);
    for (const t of ['Non-reactive', 'A-B', '5.9', 'mg/dL', 'ref:']) expect(isLeader(t), t).toBe(false);
  });

  it('dots read as letters without ascenders or descenders are noise; words and units are not', () => {
    for (const t of ['ccccceevs', 'wvveenes', 'veer', 'ween.', 'cocci', 'eeeeevisiseessesnieeeeen', 'sevanisvimans', 'eetireieiieeeerereee']) expect(isDotNoise(t), t).toBe(true);
    for (const t of ['Sodium', 'serum', 'mmol/L', 'normal', 'Creatinine', 'on', 'ere', 'mean', 'maximum', 'street', '68']) expect(isDotNoise(t), t).toBe(false);
    expect(['coco', 'ceri', 'cree.', 'on'].every(isXHeightWord)).toBe(true);
    expect(['Coco', 'tree', 'mg/dL', 'a', '14'].some(isXHeightWord)).toBe(false);
  });
});

describe('signs beside a value are no flags in a value cell', () => {
  it('keeps a split dipstick "1 +", a minus sign and a trailing dash from being read as high or low', () => {
    expect(parseValueCell('1 +')).toMatchObject({ value: '1', trailing: '+' });
    expect(parseValueCell('1 +').flag).toBeUndefined();
    expect(parseValueCell('- 2.1').problem).toMatch(/text before the number/);
    expect(parseValueCell('Negative -').flag).toBeUndefined();
  });
});

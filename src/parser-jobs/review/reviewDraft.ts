/**
 * The reviewer's working copy of a report: the cells as typed (ranges as text, so "4." can be
 * typed on the way to "4.5"), the LOINC choice, and what they become in the review body. The
 * approval sends every result, corrected or not, as the BFF asks.
 */
import type { LabReportResult, LoincMatch, ResultMetadata } from '../types';
import { RESULT_LIMITS } from '../types';
import type { CellColumn } from './doubts';

export const NO_LOINC = '';

export interface DraftResult {
  test_name: string;
  value: string;
  units: string;
  min: string;
  max: string;
  /** The chosen LOINC code, or NO_LOINC for "none". */
  loinc: string;
  original: LabReportResult;
}

export interface Draft {
  metadata: ResultMetadata;
  /** As read, to tell what the reviewer changed. */
  originalMetadata: ResultMetadata;
  results: DraftResult[];
}

const numberText = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? String(n) : '');

export function draftResult(result: LabReportResult): DraftResult {
  return {
    test_name: result.test_name,
    value: result.value,
    units: result.units ?? '',
    min: numberText(result.min_reference_range),
    max: numberText(result.max_reference_range),
    loinc: result.loinc_matches?.[0]?.loinc_code ?? NO_LOINC,
    original: result,
  };
}

export function draftOf(data: { metadata: ResultMetadata; results: LabReportResult[] }): Draft {
  return { metadata: { ...data.metadata }, originalMetadata: data.metadata, results: data.results.map(draftResult) };
}

/** "4.5" → 4.5; "" → undefined; anything else → NaN (refused). Commas are refused, not guessed. */
export function parseBound(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** Which cells of a row differ from what was read. */
export function changedCells(row: DraftResult): CellColumn[] {
  const o = row.original;
  const changed: CellColumn[] = [];
  if (row.test_name !== o.test_name) changed.push('test_name');
  if (row.value !== o.value) changed.push('value');
  if (row.units !== (o.units ?? '')) changed.push('units');
  if (parseBound(row.min) !== o.min_reference_range || parseBound(row.max) !== o.max_reference_range) changed.push('range');
  if (row.loinc !== (o.loinc_matches?.[0]?.loinc_code ?? NO_LOINC)) changed.push('loinc');
  return changed;
}

/** Field errors of the draft, keyed as the BFF keys them ("results.3.value"), so both show alike. */
export function draftErrors(draft: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  draft.results.forEach((row, i) => {
    const at = (field: string) => `results.${i}.${field}`;
    if (!row.test_name.trim()) errors[at('test_name')] = 'Enter the test name';
    else if (row.test_name.length > RESULT_LIMITS.test_name) errors[at('test_name')] = `At most ${RESULT_LIMITS.test_name} characters`;
    if (!row.value.trim()) errors[at('value')] = 'Enter the value as printed';
    else if (row.value.length > RESULT_LIMITS.value) errors[at('value')] = `At most ${RESULT_LIMITS.value} characters`;
    if (row.units.length > RESULT_LIMITS.units) errors[at('units')] = `At most ${RESULT_LIMITS.units} characters`;
    const min = parseBound(row.min);
    const max = parseBound(row.max);
    if (Number.isNaN(min)) errors[at('min_reference_range')] = 'Not a number (use a dot for decimals)';
    if (Number.isNaN(max)) errors[at('max_reference_range')] = 'Not a number (use a dot for decimals)';
    if (min !== undefined && max !== undefined && !Number.isNaN(min) && !Number.isNaN(max) && min > max) {
      errors[at('max_reference_range')] = 'The high end is below the low end';
    }
  });
  return errors;
}

/** The LOINC matches to send: the chosen one alone (a person confirmed it), or none. */
function loincMatchesOf(row: DraftResult): LoincMatch[] {
  if (row.loinc === NO_LOINC) return [];
  const chosen = row.original.loinc_matches?.find((m) => m.loinc_code === row.loinc);
  return chosen ? [chosen] : [];
}

/**
 * One result as approved. A corrected value or range drops the flags and interpretation that were
 * worked out from the misread one: the service works them out again from the corrected numbers.
 */
export function correctedResult(row: DraftResult): LabReportResult {
  const changed = changedCells(row);
  const { is_above_max_range, is_below_min_range, interpretation, units: _units, min_reference_range: _min, max_reference_range: _max, loinc_matches: _loinc, ...rest } =
    row.original;
  const recompute = changed.includes('value') || changed.includes('range');
  const min = parseBound(row.min);
  const max = parseBound(row.max);
  const units = row.units.trim();
  return {
    ...rest,
    test_name: row.test_name.trim(),
    value: row.value.trim(),
    ...(units ? { units } : {}),
    ...(min !== undefined ? { min_reference_range: min } : {}),
    ...(max !== undefined ? { max_reference_range: max } : {}),
    loinc_matches: loincMatchesOf(row),
    ...(recompute ? {} : { is_above_max_range, is_below_min_range, interpretation }),
  };
}

const OPTIONAL_METADATA = ['date_reported', 'date_collected', 'date_received', 'specimen_number', 'provider', 'lab_address', 'clia_#'] as const;

/** Metadata as approved: required fields trimmed; optional ones left out when emptied. */
export function correctedMetadata(metadata: ResultMetadata): ResultMetadata {
  const out: ResultMetadata = {
    ...metadata,
    patient_first_name: metadata.patient_first_name.trim(),
    patient_last_name: metadata.patient_last_name.trim(),
    dob: metadata.dob.trim(),
    lab_name: metadata.lab_name.trim(),
  };
  for (const key of OPTIONAL_METADATA) {
    const v = metadata[key]?.trim();
    if (v) out[key] = v;
    else delete out[key];
  }
  // "Not printed" clears the sex; anything else is one of the choices the field offers.
  if (!metadata.gender) delete out.gender;
  return out;
}

/** How many cells (and report details) the reviewer changed. */
export function changeCount(draft: Draft): number {
  const details = (Object.keys(draft.metadata) as (keyof ResultMetadata)[]).filter(
    (key) => (draft.metadata[key] ?? '').trim() !== (draft.originalMetadata[key] ?? ''),
  ).length;
  return details + draft.results.reduce((n, row) => n + changedCells(row).length, 0);
}

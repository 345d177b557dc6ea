/**
 * POST /v3/insurance/validate_icd_codes: each code must be in the code set and billable (a
 * category code is refused, naming a billable code below it); pairs under an Excludes1 note are
 * violations, pairs under an Excludes2 note warnings. Pure: codes in, verdict out.
 */
import type { ValidateIcdCodesResponse } from '../../../contract';
import { EXCLUDES1, EXCLUDES2, ICD10_CODES, type Icd10Code } from './codes';

const byCode = new Map(ICD10_CODES.map((c) => [c.code, c]));
/** E119 and e11.9 are both E11.9: the dot goes after the third character. */
export const normalizeIcdCode = (raw: string) => {
  const bare = raw.trim().toUpperCase().replace('.', '');
  return bare.length > 3 ? `${bare.slice(0, 3)}.${bare.slice(3)}` : bare;
};
const under = (code: string, category: string) => code === category || code.startsWith(category.length === 3 ? `${category}.` : category);

function childrenOf(code: string): Icd10Code[] {
  return ICD10_CODES.filter((c) => c.billable && c.code !== code && under(c.code, code));
}

export function validateIcdCodes(rawCodes: string[]): ValidateIcdCodesResponse {
  const errors: string[] = [];
  const known: string[] = [];
  for (const raw of rawCodes) {
    const code = normalizeIcdCode(raw);
    const entry = byCode.get(code);
    if (!entry) {
      errors.push(`${raw}: not an ICD-10-CM code this service knows`);
    } else if (!entry.billable) {
      const examples = childrenOf(code).slice(0, 3).map((c) => c.code);
      errors.push(`${raw}: ${entry.title} is a category, not billable; use a more specific code${examples.length ? ` such as ${examples.join(', ')}` : ''}`);
    } else {
      known.push(code);
    }
  }
  const violations: ValidateIcdCodesResponse['violations'] = [];
  const warnings: ValidateIcdCodesResponse['warnings'] = [];
  const unique = [...new Set(known)];
  for (const code of unique) {
    for (const other of unique) {
      if (other === code) continue;
      for (const note of EXCLUDES1) {
        if (under(code, note.category) && note.conflicts.some((c) => under(other, c))) violations.push({ code, conflicts_with: other, type: 'excludes1' });
      }
      for (const note of EXCLUDES2) {
        if (under(code, note.category) && note.overlaps.some((c) => under(other, c))) warnings.push({ code, overlaps_with: other, type: 'excludes2' });
      }
    }
  }
  return { valid: errors.length === 0 && violations.length === 0, errors, violations, warnings };
}

/** The title of a known code (for readers of an order); undefined for others. */
export const icdTitle = (code: string) => byCode.get(normalizeIcdCode(code))?.title;

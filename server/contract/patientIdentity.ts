/**
 * Whether a lab report belongs to the patient it is filed under: the name and date of birth read
 * from the report against those on the patient's orders. Pure, so the service decides with it and
 * the dashboard shows the same verdict while a reviewer corrects the report's header.
 */

import type { PatientCheck } from './parser';

export type PatientIdentity = PatientCheck['report'];

/** Names compared without case, accents, punctuation or middle initials ("O'Brien, Mary A." = "obrien mary"). */
export function normaliseName(name: string | null | undefined): string {
  return (name ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z\s-]/g, '')
    .split(/[\s-]+/)
    .filter((w) => w.length > 1)
    .join(' ');
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A printed date of birth as YYYY-MM-DD: ISO, US M/D/YYYY (and two-digit years), or "Jan 5, 1980"; null when unreadable. */
export function normaliseDob(dob: string | null | undefined): string | null {
  const s = (dob ?? '').trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s);
  if (m) return iso(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(s);
  if (m) {
    let year = +m[3]!;
    if (m[3]!.length === 2) year += year > (new Date().getUTCFullYear() % 100) ? 1900 : 2000;
    return iso(year, +m[1]!, +m[2]!);
  }
  m = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(s);
  if (m && MONTHS.includes(m[1]!.toLowerCase())) return iso(+m[3]!, MONTHS.indexOf(m[1]!.toLowerCase()) + 1, +m[2]!);
  return null;
}

function iso(y: number, mo: number, d: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const sameName = (a: PatientIdentity, b: PatientIdentity) => {
  const [af, al, bf, bl] = [normaliseName(a.first_name), normaliseName(a.last_name), normaliseName(b.first_name), normaliseName(b.last_name)];
  // Reports print the first name with middle names or initials: the first word decides.
  return !!al && al === bl && !!af && af.split(' ')[0] === bf.split(' ')[0];
};

export function comparePatient(report: PatientIdentity, known: PatientIdentity[]): PatientCheck {
  const reportDob = normaliseDob(report.dob);
  const hasName = !!normaliseName(report.last_name) && !!normaliseName(report.first_name);
  if (known.length === 0 || (!hasName && !reportDob)) return { status: 'unknown', report, patient: known, differences: [] };
  const exact = known.some((k) => (!hasName || sameName(report, k)) && (!reportDob || normaliseDob(k.dob) === reportDob));
  if (exact && hasName && reportDob) return { status: 'match', report, patient: known, differences: [] };
  const differences: string[] = [];
  if (hasName && !known.some((k) => sameName(report, k))) differences.push('name');
  if (reportDob && !known.some((k) => normaliseDob(k.dob) === reportDob)) differences.push('date of birth');
  if (differences.length === 0) return { status: exact ? 'unknown' : 'mismatch', report, patient: known, differences: exact ? [] : ['name and date of birth do not belong to the same order'] };
  return { status: 'mismatch', report, patient: known, differences };
}

/** What a mismatch means for the reviewer, naming what to check. */
export function mismatchMessage(check: PatientCheck): string {
  const r = check.report;
  const p = check.patient[0];
  const printed = `${[r.first_name, r.last_name].filter(Boolean).join(' ') || 'no name'}${r.dob ? `, born ${r.dob}` : ''}`;
  const theirs = p ? `${[p.first_name, p.last_name].filter(Boolean).join(' ')}${p.dob ? `, born ${p.dob}` : ''}` : 'nobody';
  return `The report is for ${printed}, but this patient's orders are for ${theirs} (${check.differences.join(' and ')} differ): check the report was filed under the right patient.`;
}

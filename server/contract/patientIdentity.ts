/**
 * Whether a lab report belongs to the patient it is filed under: the name and date of birth read
 * from the report against those on the patient's orders. Pure, so the service decides with it and
 * the dashboard shows the same verdict while a reviewer corrects the report's header.
 */

import type { PatientCheck } from './parser';
import { withoutAccents } from './fold';
import { isoDateOf } from './printedDate';

export type PatientIdentity = PatientCheck['report'];
type Status = PatientCheck['status'];

/**
 * A name's words without case, accents or punctuation, initials kept ("J.R. O'Brien" → j, r, obrien).
 * Letters of every script stay letters (Петров, Παπαδόπουλος): only what is not a letter splits words,
 * and an apostrophe or middle dot joins them, as in O'Brien and Col·lell.
 */
export function nameWords(name: string | null | undefined): string[] {
  return withoutAccents((name ?? '').toLowerCase().replace(/['’ʼ`´·]/g, ''))
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

/** The name and date of birth a report's header prints (blank fields as null). */
export function headerIdentity(metadata: { patient_first_name?: string; patient_last_name?: string; dob?: string } | null | undefined): PatientIdentity {
  return { first_name: metadata?.patient_first_name || null, last_name: metadata?.patient_last_name || null, dob: metadata?.dob || null };
}

/** Names compared without case, accents, punctuation or middle initials ("O'Brien, Mary A." = "obrien mary"). */
export function normaliseName(name: string | null | undefined): string {
  return nameWords(name)
    .filter((w, i) => i === 0 || w.length > 1)
    .join(' ');
}

/** A printed date of birth as YYYY-MM-DD, in any form labs print (see printedDate.ts); null when unreadable. */
export function normaliseDob(dob: string | null | undefined): string | null {
  return isoDateOf(dob);
}

/** The first word of the first name ('' when unreadable) and the last name without lone initials. */
function nameParts(p: PatientIdentity): { first: string; last: string } {
  const last = nameWords(p.last_name);
  return { first: nameWords(p.first_name)[0] ?? '', last: (last.length > 1 ? last.filter((w) => w.length > 1) : last).join(' ') };
}

const sameName = (a: PatientIdentity, b: PatientIdentity) => {
  const [x, y] = [nameParts(a), nameParts(b)];
  if (!x.last || x.last !== y.last) return false;
  // Reports print the first name with middle names, as an initial, or not legibly at all: the
  // first word decides, an initial only as an initial, and an unreadable one leaves the last name to decide.
  if (!x.first || !y.first) return true;
  if (x.first.length === 1 || y.first.length === 1) return x.first[0] === y.first[0];
  return x.first === y.first;
};

export function comparePatient(report: PatientIdentity, known: PatientIdentity[]): PatientCheck {
  const reportDob = normaliseDob(report.dob);
  const hasName = nameParts(report).last !== '';
  if (known.length === 0 || (!hasName && !reportDob)) return { status: 'unknown', report, patient: known, differences: [] };
  const exact = known.some((k) => (!hasName || sameName(report, k)) && (!reportDob || normaliseDob(k.dob) === reportDob));
  if (exact && hasName && reportDob) return { status: 'match', report, patient: known, differences: [] };
  const differences: string[] = [];
  if (hasName && !known.some((k) => sameName(report, k))) differences.push('name');
  if (reportDob && !known.some((k) => normaliseDob(k.dob) === reportDob)) differences.push('date of birth');
  if (differences.length === 0) return { status: exact ? 'unknown' : 'mismatch', report, patient: known, differences: exact ? [] : ['name and date of birth do not belong to the same order'] };
  return { status: 'mismatch', report, patient: known, differences };
}

const IDENTITY_FIELDS = [
  { label: 'first name', readable: (p: PatientIdentity) => nameWords(p.first_name).length > 0, raw: (p: PatientIdentity) => p.first_name },
  { label: 'last name', readable: (p: PatientIdentity) => nameWords(p.last_name).length > 0, raw: (p: PatientIdentity) => p.last_name },
  { label: 'date of birth', readable: (p: PatientIdentity) => normaliseDob(p.dob) !== null, raw: (p: PatientIdentity) => p.dob },
];

const WORSE: Status[] = ['match', 'unknown', 'mismatch'];
const worse = (a: Status, b: Status) => (WORSE.indexOf(a) >= WORSE.indexOf(b) ? a : b);

/**
 * The verdict on a header a reviewer corrected. The header as read counts as much as the correction:
 * a reviewer must not turn a report that names someone else into this patient's by retyping the name,
 * nor by blanking what was read. The worse verdict of the two stands; a field read and left blank
 * makes it at best `unknown`. `report` is the corrected header, `extracted` the verdict as read.
 */
export function compareReviewedPatient(extracted: PatientIdentity, corrected: PatientIdentity, known: PatientIdentity[]): PatientCheck {
  const now = comparePatient(corrected, known);
  if (IDENTITY_FIELDS.every((f) => (f.raw(extracted) ?? '').trim() === (f.raw(corrected) ?? '').trim())) return now;
  const read = comparePatient(extracted, known);
  const removed = IDENTITY_FIELDS.filter((f) => f.readable(extracted) && !f.readable(corrected)).map((f) => f.label);
  return {
    ...now,
    status: worse(worse(now.status, read.status), removed.length ? 'unknown' : 'match'),
    differences: [...new Set([...now.differences, ...read.differences])],
    extracted: { status: read.status, report: read.report, differences: read.differences },
    ...(removed.length ? { removed } : {}),
  };
}

const fullName = (p: PatientIdentity) => [p.first_name, p.last_name].filter((s) => s?.trim()).join(' ');
const described = (p: PatientIdentity) => `${fullName(p) || 'no name'}${p.dob?.trim() ? `, born ${p.dob}` : ''}`;
const ordersOf = (check: PatientCheck) => (check.patient[0] ? described(check.patient[0]) : 'nobody');
const FIELD_NAMES = new Set(['name', 'date of birth']);
/** "name differs", "name and date of birth differ"; a difference that is not a field is said as it is. */
const differ = (differences: string[]) =>
  differences.every((d) => FIELD_NAMES.has(d)) ? `${differences.join(' and ')} ${differences.length === 1 ? 'differs' : 'differ'}` : differences.join('; ');
const both = (items: string[]) => items.join(' and ');

/** What a mismatch means for the reviewer, naming what to check (the header as read too, when a review changed it). */
export function mismatchMessage(check: PatientCheck): string {
  const now = check.extracted ? comparePatient(check.report, check.patient) : check;
  const said: string[] = [];
  if (now.status === 'mismatch') {
    said.push(`The report is for ${described(check.report)}, but this patient's orders are for ${ordersOf(check)} (${differ(now.differences)})`);
  }
  const read = check.extracted;
  if (read?.status === 'mismatch') {
    said.push(
      now.status === 'mismatch'
        ? `as read, it was for ${described(read.report)}`
        : `As read, the report was for ${described(read.report)}, not ${ordersOf(check)} as on this patient's orders (${differ(read.differences)}); it was corrected in review to ${described(check.report)}`,
    );
  }
  return `${said.join('; ')}: check the report was filed under the right patient.`;
}

/** Why a report could not be compared with the patient, and what the reviewer must check instead. */
function unverifiedMessage(check: PatientCheck): string {
  const read = check.extracted;
  if (check.removed?.length) {
    return `The review removed the report's ${both(check.removed)} (read as ${described(read?.report ?? check.report)}): check this report belongs to ${ordersOf(check)} before approving it.`;
  }
  if (check.patient.length === 0) {
    return `No identity to compare: this patient has no orders giving a name and date of birth. Check this report (for ${described(check.report)}) belongs to this patient before approving it.`;
  }
  const unread = (p: PatientIdentity) => [nameParts(p).last ? null : 'patient name', normaliseDob(p.dob) ? null : 'date of birth'].filter((x): x is string => x !== null);
  const missing = unread(check.report);
  if (missing.length) {
    const other = missing.length === 1 ? (missing[0] === 'date of birth' ? ' (the name matches)' : ' (the date of birth matches)') : '';
    return `The report's ${both(missing)} could not be read${other}: check this report belongs to ${ordersOf(check)} before approving it.`;
  }
  const wasMissing = read ? unread(read.report) : [];
  return `As read, the report's ${both(wasMissing.length ? wasMissing : ['patient name', 'date of birth'])} could not be compared; the review entered ${described(check.report)}: check it against the document before approving.`;
}

/** The words for a check that is not a match (null for a match): the mismatch, or what to check when nothing could be compared. */
export function patientCheckMessage(check: PatientCheck): string | null {
  if (check.status === 'match') return null;
  return check.status === 'mismatch' ? mismatchMessage(check) : unverifiedMessage(check);
}

/**
 * What each metadata field's value looks like. Values are kept as printed (wire-facts §7: plain
 * strings, not parsed dates); these functions only find the value's extent in the text after its
 * label and refuse text that is not such a value, so a label followed by something else ("Name:
 * Lakeside Labs", "Sex: see note") leaves the field empty rather than wrong.
 */

import { PRINTED_DATE } from '../../../contract/printedDate';

/** 01/02/1980, 1/2/80, 02.01.1980, 1980-01-02, 05-Jan-2024, 5 Jan 2024, January 5, 2024: the forms the service reads back (contract/printedDate.ts). */
export const DATE = PRINTED_DATE;

/** 08:30, 8:30 AM, 08:30:15, 0830 (four digits right after a date), with an optional time zone. */
// A time after the date: "03/12/2024 08:15", "0815", "@ 8:15 AM", "at 8:15", and after a comma only
// with a colon ("Nov 16, 2024, 7:15 AM"; ", 1234 Main St" is an address).
const TIME = String.raw`(?:(?:(?:\s+|T|\s*@\s*|\s*\/\s*|\s+at\s+)(?:\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?|(?:[01]\d|2[0-3])[0-5]\d(?!\d)(?:\s?(?:hrs?|h))?)|-(?:[01]\d|2[0-3])[0-5]\d(?!\d)|,\s*\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?)(?:\s+(?:[ECMPA][SD]T|ET|CT|MT|PT|UTC|GMT|CET|BST))?)`;

const DATE_RE = new RegExp(`^${DATE}`, 'i');
const DATE_TIME_RE = new RegExp(`^${DATE}${TIME}?`, 'i');

/** Text before a value that is not part of it: separators, and "on"/"of" after colonless labels. */
const LEAD = /^[\s:#\-–=.,|(]*(?:(?:on|of|at)\s+)?/i;

/** A date at the start of the text (the value right after its label), or ''. */
export function dateValue(text: string): string {
  // "Age/DOB: 64 / 03/05/1960": the age before the date is no part of it.
  return DATE_RE.exec(text.replace(LEAD, '').replace(/^\d{1,3}(?:\s*(?:y|yrs?|years?)\s*|\s+)[/,]\s+/, ''))?.[0] ?? '';
}

/** A date and, when printed, the time after it ("01/15/2024 08:30", "Jan 5, 2024 8:30 AM"). */
export function dateTimeValue(text: string): string {
  return DATE_TIME_RE.exec(text.replace(LEAD, ''))?.[0]?.trim() ?? '';
}

/** "F", "Female", "45/F", "F/45", "45 Y F", "Male" -> the wire's words; unknown or unclear -> ''. */
export function genderValue(text: string): '' | 'female' | 'male' | 'other' {
  const tokens = text.replace(LEAD, '').split(/[\s/,()|;-]+/).filter(Boolean).slice(0, 4);
  for (const t of tokens) {
    const w = t.toLowerCase().replace(/\.$/, '');
    if (w === 'f' || w === 'fem' || w === 'female' || w === 'woman' || w === 'weiblich' || w === 'w' || w === 'femenino' || w === 'mujer') return 'female';
    if (w === 'm' || w === 'masc' || w === 'male' || w === 'man' || w === 'männlich' || w === 'maennlich' || w === 'masculino' || w === 'hombre') return 'male';
    if (w === 'x' || w === 'other' || w === 'nonbinary' || w === 'non-binary' || w === 'intersex') return 'other';
    // An age, or the parts of a birth date printed before the sex ("Birthdate/Sex: 03/05/1960 F").
    if (/^\d{1,3}(?:y|yo|yrs?|years?)?$/.test(w) || /^(?:19|20)\d{2}$|^\d{1,2}\.\d{1,2}\.\d{2,4}$/.test(w) || w === 'y' || w === 'yrs' || w === 'years' || w === 'y/o') continue;
    return '';
  }
  return '';
}

/** "45 y/o female", "a 45-year-old male", "F/45", "45/M", "45 Y F": sex printed without a label. */
const UNLABELLED_GENDER = [
  /\b\d{1,3}[ -]?(?:y\/o|yo|y\.o\.|years?[ -]old|yrs?\.?|y)[ ,]+(female|male|woman|man|f|m)\b/i,
  /(?:^|[\s(|])([FM])\s*\/\s*\d{1,3}(?:\s*(?:y|yrs?|years))?(?=$|[\s),|])/,
  /(?:^|[\s(|])\d{1,3}\s*(?:y|yrs?)?\s*\/\s*([FM])(?=$|[\s),|])/,
  // The patient's identity line of a portal export: "Born Jul 19, 1970 · Female · Patient ID …".
  // OCR may read the middle dot as a dash: "Born Jul 23, 1944 - Female - Patient ID …".
  /\b(?:born|dob|d\.o\.b\.?|date of birth)\b[^·|;]{0,40}(?:[·|;,]|\s[-–•]\s)\s*(female|male)\b/i,
  // "Sex M" with the space lost to OCR: "SexM", "GenderFemale".
  /\b(?:Sex|SEX|Gender|GENDER)(F|M|Female|Male|FEMALE|MALE)\b/,
];

export function unlabelledGender(text: string): '' | 'female' | 'male' | 'other' {
  for (const re of UNLABELLED_GENDER) {
    const m = re.exec(text);
    if (m) return genderValue(m[1]!);
  }
  return '';
}

/** An accession or specimen number: the first token, with at least one digit ("A24-7797693", "#123456"). */
export function specimenValue(text: string): string {
  const token = text.replace(LEAD, '').split(/\s+/)[0]?.replace(/^#/, '').replace(/[,;.]$/, '') ?? '';
  // A date is never the number ("Specimen 2024-01-05 08:30", now that "Specimen" is read without a colon).
  if (new RegExp(`^${PRINTED_DATE}$`, 'i').test(token)) return '';
  // "1211:C52641" (MEDITECH: month and day, a colon, the number); a colon between digits alone is a time.
  if (token.includes(':') && !/^\d{4}:[A-Z]\d{3,}$/i.test(token)) return '';
  return /^[A-Z0-9][A-Z0-9:-]{3,}$/i.test(token) && /\d/.test(token) ? token : '';
}

export const CLIA_RE = /(?<![A-Z0-9])\d{2}D\d{7}(?![A-Z0-9])/i;

/** A CLIA number right after its label ("CLIA: 05D0642827", "CLIA No. 05D0642827"). */
export function cliaValue(text: string): string {
  const m = /^[\s:#.]*(?:no\.?|number|id|lab\s*#)?[\s:#.]*(\d{2}D\d{7})(?![A-Z0-9])/i.exec(text);
  return m ? m[1]!.toUpperCase() : '';
}

/** Words that are never part of a person's name: a label over something else ("Name: Lab Results"). */
const NOT_A_NAME = /\b(?:lab(?:oratory|oratories|s)?|results?|report|test(?:s|ing)?|patient|page|date|specimen|clinic|hospital|medical|center|health|diagnostics?|services?|your|the|see|unknown|n\/a|none|copy|final|information|details|demographics|client|account|physician|provider|doctor|summary|discharge|note|progress|admission|visit|encounter|history|record)\b/i;

/** Letters of names in any script, with the apostrophes, hyphens, dots and commas names carry. */
const NAME_CHARS = /^[\p{L}\p{M}'’.,\- ]+$/u;

/** A person's name as printed after its label, cut before anything that is not the name. */
export function personValue(text: string): string {
  let v = text.replace(LEAD, '').replace(/\s+/g, ' ').trim();
  // "Jane Doe (DOB 01/02/1980)", "DOE, JANE  MRN 12345": the name ends where the rest begins.
  v = v.split(/\s*[(|;]|\s+page\s+\d/i)[0]!;
  // "QUINN, HIROSHI H ~~ MRN": a mark OCR made of a rule or a box's edge ends the name too.
  // Not at a comma or a dot OCR spaced off the word before it ("DOE , JANE"): those are the name's own.
  v = v.replace(/\s+(?=[,.])/g, '').split(/\s+(?=[^\p{L}\p{M}\p{N}'’,.])/u)[0]!;
  const digit = v.search(/\s\S*\d/);
  if (digit >= 0) v = v.slice(0, digit);
  v = v.replace(/[,.:;\s-]+$/, '').trim();
  if (!v || !NAME_CHARS.test(v) || NOT_A_NAME.test(v)) return '';
  const words = v.split(' ');
  if (words.length > 6 || !/\p{L}{2}/u.test(v)) return '';
  return v;
}

const HONORIFIC = /^(?:mr|mrs|ms|miss|mx|dr|master)\.?\s+/i;
const SUFFIX = /^(?:jr|sr|ii|iii|iv|v)\.?$/i;
/** Particles that belong to the last name ("de la Cruz", "van der Berg"). */
const PARTICLE = /^(?:de|del|della|de la|da|das|do|dos|du|di|la|le|van|von|der|den|ter|ten|st\.?|mac|bin|ibn|al|el)$/i;

/**
 * "DOE, JANE A" (last name first) or "Jane A. Doe", "Ms. Jane Doe Jr.": first and last names;
 * middle names, initials, honorifics and suffixes are dropped. One word is a last name only when a
 * title says so ("Ms. Doe"); a lone word otherwise is not split (it could be either).
 */
export function splitName(name: string): { first: string; last: string } {
  const titled = HONORIFIC.test(name);
  const v = name.replace(HONORIFIC, '').replace(/\s+/g, ' ').trim();
  const comma = /^([^,]+),\s*(.+)$/.exec(v);
  if (comma) {
    const last = comma[1]!.split(' ').filter((w) => !SUFFIX.test(w)).join(' ');
    const rest = comma[2]!.replace(HONORIFIC, '').split(/[ ,]+/).filter((w) => w && !SUFFIX.test(w));
    // "Doe, Jr., John"? no: a suffix after the comma is dropped above; an initial alone is a first name.
    return rest.length && last ? { first: rest[0]!, last } : { first: '', last: '' };
  }
  const words = v.split(' ').filter((w) => !SUFFIX.test(w.replace(/,$/, '')));
  if (words.length === 1) return titled ? { first: '', last: words[0]!.replace(/,$/, '') } : { first: '', last: '' };
  if (words.length < 2) return { first: '', last: '' };
  let start = words.length - 1;
  while (start > 1 && PARTICLE.test(words[start - 1]!)) start--;
  return { first: words[0]!, last: words.slice(start).join(' ').replace(/,$/, '') };
}

/** "Dr. …" or "…, MD": a clinician, never the patient a "Name:" label may also name. */
export function isClinician(name: string): boolean {
  return /^dr\.?\s/i.test(name.trim()) || CREDENTIAL.test(name);
}

const CREDENTIAL = /\b(?:MD|M\.D\.|DO|D\.O\.|NP|FNP|FNP-C|PA|PA-C|DNP|RN|PhD|DDS|MBBS|FRCP|ARNP|APRN|CNM)\b/;

/**
 * The ordering provider as printed ("Dr. Ana Ruiz, MD", "RUIZ, ANA MD", "Rivera, A (MD)"): the
 * NPI, a phone number or anything after them is not part of it. `personOnly` (a "Client:" label)
 * takes the value only when it is plainly a person (a title or a credential).
 */
export function providerValue(text: string, personOnly = false): string {
  // "Praxis Dr. med. Sabine Krüger": the practice is the physician's.
  let v = text.replace(LEAD, '').replace(/\s+/g, ' ').trim().replace(/^(?:praxis|gemeinschaftspraxis|cabinet)\s+(?=dr\.?\s)/i, '');
  v = v.replace(/\s*[,;(/]?\s*\b(?:NPI|UPIN|Phone|Ph|Tel|Fax|ID)\b.*$/i, '');
  v = v.replace(/\s*[,;(]?\s*(?:\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}\)?.*$/, '');
  // "Dr. Samir Haddad (CPSO #50710)": a registration number in parentheses is not the name (after
  // the phone, whose area code in parentheses would otherwise go and leave the rest of the number).
  v = v.replace(/\s*\([^()]*\d[^()]*\)/g, '');
  v = v.replace(/\s*[,;(]?\s*\d{5,}\)?.*$/, '');
  // A separator ends the value: "Kofi Osei, MD · Performed by …".
  v = v.replace(/\s*[|·•].*$/, '').replace(/[,;:\s-]+$/, '').trim();
  if (!v || /\d/.test(v) || !/\p{L}{2}/u.test(v) || v.split(' ').length > 8) return '';
  if (/\b(?:lab(?:oratory|s)?|diagnostics|hospital|clinic|center|centre|department|associates|group|health|services)\b/i.test(v)) return '';
  if (!/^[\p{L}\p{M}'’.,\-() ]+$/u.test(v)) return '';
  if (personOnly && !(/^dr\.?\s/i.test(v) || CREDENTIAL.test(v))) return '';
  return v;
}

export const LAB_WORDS = /laborator(?:y|ies|io)|\blabs?\b|pathlabs?\b|labcorp|diagnostic|pathology|clinical|reference lab|medical center|biochemistry|hospital|\blabor(?:zentrum|praxis|gemeinschaft)?\b/i;

/** A report title, not a lab ("Laboratory Report", "Clinical Lab Results", "Cumulative Summary"). */
const TITLE = /^(?:(?:final|preliminary|corrected|amended|cumulative|clinical|patient|your)\s+)*(?:lab(?:oratory)?\s+)?(?:test\s+)?(?:report|results?|summary|requisition|values?)\b|^(?:labor|end|teil|vor)?befund\b/i;

/** A laboratory's name: cut before its address, CLIA number or phone; refused when it is a title. */
export function labValue(text: string, needLabWord = false): string {
  let v = text.replace(LEAD, '').replace(/\s+/g, ' ').trim();
  // "Tested by Northstar Diagnostic Laboratory, …" in a footer: the lab is what follows.
  v = v.replace(/^(?:(?:testing|tests?)\s+(?:was\s+|were\s+)?performed|tested|processed|analy[sz]ed)\s+(?:by|at)\s+/i, '');
  v = v.replace(/\s*(?:,|\s-|[|•·])\s*\d.*$/, '').replace(/\s+\d{1,6}\s+\p{L}.*$/u, '');
  v = v.replace(/\s*[,|(-]?\s*\b(?:CLIA|Phone|Tel|Fax|Lab Director|Director)\b.*$/i, '');
  v = v.replace(/[,;:.\s-]+$/, '').trim();
  if (!v || !/\p{L}{3}/u.test(v) || v.split(' ').length > 10 || TITLE.test(v) || /:/.test(v)) return '';
  // "Lab No.", "Lab ID": a label of the specimen's number; "Received at lab": a date's label. Not a lab.
  if (/^lab(?:oratory)?\s*(?:no|nr|number|#|id|ref)\.?$/i.test(v) || /^\p{L}+ed\s+(?:at|in|by|to)\s+(?:the\s+)?lab(?:oratory)?$/iu.test(v)) return '';
  if (needLabWord && !LAB_WORDS.test(v)) return '';
  return v;
}

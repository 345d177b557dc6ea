/**
 * Dates as labs print them. One list of forms serves the reader (which finds a date's extent in a
 * report's text), the patient check (which compares a printed date of birth with the patient's)
 * and the results history (which files a value at the printed collection time), so a form the
 * reader can find is always a form the others can read: a "16-Feb-1982" date of birth found on a
 * report is compared, not set aside as unreadable.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A month printed as a word: "Mar", "mar.", "March", "Sept". */
const MONTH_WORD = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;

/** "Mar", "mar.", "March", "Sept" → 3, 3, 3, 9; null for a word that is no English month. */
function monthOf(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  const i = MONTHS.findIndex((name) => w === name || w === name.slice(0, 3) || (name === 'september' && w === 'sept'));
  return i < 0 ? null : i + 1;
}

/** A two-digit year is this century's, unless that is more than a year ahead. */
function fullYear(printed: string): number {
  const y = Number(printed);
  if (printed.length > 2) return y;
  const thisYear = new Date().getUTCFullYear();
  return 2000 + y > thisYear + 1 ? 1900 + y : 2000 + y;
}

/** The printed forms, each with its capture groups and how they give year, month and day. */
const FORMS: { source: string; read(m: RegExpExecArray): [number, number | null, number] }[] = [
  // 2024-03-05, 2024/03/05, 2024.03.05 (and 2024-03-05T08:30)
  { source: String.raw`(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d|[/.-]\d)`, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  // 03/05/2024, 3-5-24, 05.03.2024: month first, as US labs print it; a first number past 12 can only be the day.
  {
    // A four-digit time may follow after a dash, as MEDITECH prints it ("12/05/24-0805").
    source: String.raw`(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d|[/.]\d|-\d{1,3}(?!\d)|-\d{5})`,
    read: (m) => {
      const [a, b] = [Number(m[1]), Number(m[2])];
      return a > 12 ? [fullYear(m[3]!), b, a] : [fullYear(m[3]!), a, b];
    },
  },
  // 05-Mar-2024, 5 Mar 2024, 5 March 2024, 05-MAR-24, 16-Feb-1982, 16/Dec/2024
  { source: String.raw`(\d{1,2})(?:[\s-]+|/)(${MONTH_WORD})(?:[\s-]+|/)(\d{4}|\d{2})(?!\d|-\d)`, read: (m) => [fullYear(m[3]!), monthOf(m[2]!), Number(m[1])] },
  // March 5, 2024, Mar. 5 2024, Mar 5th, 2024
  { source: String.raw`(${MONTH_WORD})\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)`, read: (m) => [Number(m[3]), monthOf(m[1]!), Number(m[2])] },
];

/** "Thu, ", "Thursday " before a date: printed by portals and clinics, and part of the date as printed. */
const WEEKDAY = String.raw`(?:(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\.?,?\s+)?`;
const ANCHORED = FORMS.map((f) => ({ re: new RegExp(`^${WEEKDAY}${f.source}`, 'i'), read: f.read }));

/**
 * Any printed date, without capture groups, for finding one inside longer text (case-insensitive
 * flags are the caller's): the same forms `readPrintedDate` reads.
 */
export const PRINTED_DATE = `(?:${WEEKDAY}(?:${FORMS.map((f) => f.source.replace(/\((?!\?)/g, '(?:')).join('|')}))`;

export interface PrintedDate {
  year: number;
  month: number;
  day: number;
  /** The text after the date (a time, a zone, or nothing). */
  rest: string;
}

/** The date a text starts with, or null when it is none of the printed forms or no day of the calendar (31/02/2024). */
export function readPrintedDate(printed: string): PrintedDate | null {
  const text = printed.trim();
  for (const { re, read } of ANCHORED) {
    const m = re.exec(text);
    if (!m) continue;
    const [year, month, day] = read(m);
    if (month === null) return null;
    const d = new Date(Date.UTC(year, month - 1, day));
    if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
    return { year, month, day, rest: text.slice(m[0].length) };
  }
  return null;
}

/** The date a text starts with as YYYY-MM-DD (a time after it is ignored), or null when unreadable. */
export function isoDateOf(printed: string | null | undefined): string | null {
  const date = readPrintedDate(printed ?? '');
  if (!date) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

/**
 * What may follow the date: a time (24-hour, or with am/pm), then an offset (Z, UTC, GMT, ±hh:mm),
 * or a zone abbreviation (CST), which says nothing the patient's zone does not and is ignored.
 */
const TIME =
  /^(?:[\sT,]+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:\s*([ap])\.?m\.?)?(?:\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})|\s+[A-Za-z]{2,5})?)?\s*$/i;

export interface PrintedWallTime {
  /** The date and time as printed, in milliseconds of a clock that reads them in UTC (a date alone is noon). */
  wall: number;
  /** The offset printed after the time ("Z", "UTC", "-05:00"), if any. */
  offset?: string;
}

/**
 * A printed date and time on the wall clock, zone left to the caller: "03/05/2024 8:30 PM",
 * "05-Mar-2024 08:30", "Nov 16, 2024, 7:15 AM", "03/12/2024 @ 0815", "2024-03-05T08:30:00Z". Null when
 * the text is no printed date, or what follows the date is no time.
 */
export function readPrintedWallTime(printed: string): PrintedWallTime | null {
  const date = readPrintedDate(printed);
  if (!date) return null;
  // "@ 08:30", "/ 08:30" and the 24-hour "0830 hrs" LIS printouts use, as the reader finds them (reader/metadata/values.ts).
  const t = TIME.exec(date.rest.replace(/^\s*(?:[@/]\s*)?/, ' ').replace(/^ ([01]\d|2[0-3])([0-5]\d)(?:\s?(?:hrs?|h))?(?![\d:])/i, ' $1:$2'));
  if (!t) return null;
  let [hours, minutes, seconds] = [12, 0, 0];
  if (t[1] !== undefined) {
    [hours, minutes, seconds] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
    if (t[4]) {
      if (hours < 1 || hours > 12) return null;
      hours = (hours % 12) + (t[4].toLowerCase() === 'p' ? 12 : 0);
    }
    if (hours > 23 || minutes > 59 || seconds > 59) return null;
  }
  const wall = Date.UTC(date.year, date.month - 1, date.day) + ((hours * 60 + minutes) * 60 + seconds) * 1000;
  return t[5] ? { wall, offset: t[5] } : { wall };
}

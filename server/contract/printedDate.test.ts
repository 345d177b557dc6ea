import { describe, expect, it } from 'vitest';
import { isoDateOf, PRINTED_DATE, readPrintedDate } from './printedDate';
import { normaliseDob } from './patientIdentity';
import { dateValue } from '../service/reader/metadata/values';

const FORMS: [printed: string, iso: string][] = [
  ['1982-02-16', '1982-02-16'],
  ['1982/2/16', '1982-02-16'],
  ['1982.02.16', '1982-02-16'],
  ['02/16/1982', '1982-02-16'],
  ['2/16/82', '1982-02-16'],
  ['16.02.1982', '1982-02-16'],
  ['16-Feb-1982', '1982-02-16'],
  ['16-FEB-82', '1982-02-16'],
  ['16 Feb 1982', '1982-02-16'],
  ['16 February 1982', '1982-02-16'],
  ['Feb 16, 1982', '1982-02-16'],
  ['Feb. 16 1982', '1982-02-16'],
  ['February 16th, 1982', '1982-02-16'],
  ['Sept 3, 2024', '2024-09-03'],
  ['Thu, Nov 7, 2024', '2024-11-07'],
  ['Thursday 7 November 2024', '2024-11-07'],
  ['Sat 16.02.1982', '1982-02-16'],
];

describe('printed dates', () => {
  it.each(FORMS)('reads %s as %s', (printed, iso) => {
    expect(isoDateOf(printed)).toBe(iso);
  });

  it('is one list: every form the reader finds, the patient check reads', () => {
    for (const [printed, iso] of FORMS) {
      expect(dateValue(`: ${printed}`), printed).toBe(printed);
      expect(normaliseDob(printed), printed).toBe(iso);
    }
  });

  it('finds a date inside a sentence and stops before a full stop', () => {
    const m = new RegExp(`on (${PRINTED_DATE})`, 'i').exec('the sample you gave on 03/05/2024. Thank you');
    expect(m?.[1]).toBe('03/05/2024');
    expect(isoDateOf('03/05/2024.')).toBe('2024-03-05');
  });

  it('keeps what follows the date for the time reader', () => {
    expect(readPrintedDate('2024-03-05T08:30Z')).toEqual({ year: 2024, month: 3, day: 5, rest: 'T08:30Z' });
    expect(readPrintedDate('05-Mar-2024 @ 0830')?.rest).toBe(' @ 0830');
  });

  it('refuses what is no day of the calendar or no date at all', () => {
    for (const bad of ['Sunny, Nov 7, 2024', 'Monitor 5 Mar 2024', '02/30/2024', '13/13/2024', '31-Smarch-2024', 'smudged', '', '1/2/3/4', '2024-03-05-1']) expect(isoDateOf(bad), bad).toBeNull();
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../../lib/timezones';
import { chooseLoincMatch, loincCode, readPrintedTime, reportObservedAt } from './fromReport';

const UPLOADED = new Date('2026-06-01T09:30:00Z');
const metadata = (printed: { date_collected?: string; date_reported?: string }) => ({
  patient_first_name: 'Ada',
  patient_last_name: 'Lovelace',
  dob: '1985-12-10',
  lab_name: 'Outside Lab',
  ...printed,
});
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('readPrintedTime', () => {
  it.each(['05-Mar-2024', '5 Mar 2024', '05-MAR-24', '5 March 2024', 'March 5, 2024', 'Mar. 5 2024', 'Mar 5th, 2024', '2024-03-05', '2024/03/05', '03/05/2024', '3/5/2024', '3-5-2024', '03/05/24'])(
    '%j is 5 March 2024, at noon in the patient’s zone',
    (printed) => {
      expect(iso(readPrintedTime(printed, 'America/New_York'))).toBe('2024-03-05T17:00:00.000Z');
    },
  );

  it('reads a day past 12 first as the day (25/03/2024), the only reading there is', () => {
    expect(iso(readPrintedTime('25/03/2024', 'UTC'))).toBe('2024-03-25T12:00:00.000Z');
  });

  it('keeps a date alone on its day in every zone, from UTC−11 to UTC+14', () => {
    for (const zone of ['Pacific/Pago_Pago', 'America/Los_Angeles', 'UTC', 'Asia/Kolkata', 'Pacific/Auckland', 'Pacific/Kiritimati']) {
      const at = readPrintedTime('March 5, 2024', zone);
      expect(at && localDate(zone, at), zone).toBe('2024-03-05');
    }
  });

  it('reads a printed time in the patient’s zone, across a change of daylight saving time', () => {
    expect(iso(readPrintedTime('03/05/2024 8:30 PM', 'America/New_York'))).toBe('2024-03-06T01:30:00.000Z');
    expect(iso(readPrintedTime('03/15/2024 8:30 PM', 'America/New_York'))).toBe('2024-03-16T00:30:00.000Z');
    expect(iso(readPrintedTime('05-Mar-2024 08:30', 'Europe/Berlin'))).toBe('2024-03-05T07:30:00.000Z');
    expect(iso(readPrintedTime('2024-07-05 08:30:15', 'Europe/Berlin'))).toBe('2024-07-05T06:30:15.000Z');
    expect(iso(readPrintedTime('2024-03-05T08:30:00', 'America/Chicago'))).toBe('2024-03-05T14:30:00.000Z');
    expect(iso(readPrintedTime('March 5, 2024 at 12:05 am', 'UTC'))).toBe('2024-03-05T00:05:00.000Z');
    expect(iso(readPrintedTime('March 5, 2024, 12:05 p.m. CST', 'America/Chicago'))).toBe('2024-03-05T18:05:00.000Z');
  });

  it('reads the times LIS printouts use, as the reader finds them: "@ 0830", "/ 08:30", "1415 hrs"', () => {
    expect(iso(readPrintedTime('05-Mar-2024 @ 0830', 'UTC'))).toBe('2024-03-05T08:30:00.000Z');
    expect(iso(readPrintedTime('03/05/2024 / 08:30', 'UTC'))).toBe('2024-03-05T08:30:00.000Z');
    expect(iso(readPrintedTime('03/05/2024 1415 hrs', 'UTC'))).toBe('2024-03-05T14:15:00.000Z');
    expect(readPrintedTime('03/05/2024 2475', 'UTC')).toBeNull();
  });

  it('takes a printed offset as it is, whatever the patient’s zone', () => {
    expect(iso(readPrintedTime('2024-03-05T08:30:00Z', 'America/Chicago'))).toBe('2024-03-05T08:30:00.000Z');
    expect(iso(readPrintedTime('2024-03-05T08:30:00.250+01:00', 'America/Chicago'))).toBe('2024-03-05T07:30:00.000Z');
    expect(iso(readPrintedTime('2024-03-05 08:30 -0500', null))).toBe('2024-03-05T13:30:00.000Z');
    expect(iso(readPrintedTime('03/05/2024 08:30 UTC', 'Asia/Tokyo'))).toBe('2024-03-05T08:30:00.000Z');
  });

  it('reads in UTC when the patient has no zone on file', () => {
    expect(iso(readPrintedTime('03/05/2024', null))).toBe('2024-03-05T12:00:00.000Z');
    expect(iso(readPrintedTime('03/05/2024 08:30', null))).toBe('2024-03-05T08:30:00.000Z');
  });

  it.each(['', 'pending', '02/30/2024', '13/13/2024', '2024-13-01', 'Smarch 5, 2024', 'Mar 5', '03/05/2024 25:00', '03/05/2024 8:75', '03/05/2024 13:00 PM', '03/05/2024 - 03/06/2024', '5 Mars 2024'])(
    '%j is no date',
    (printed) => {
      expect(readPrintedTime(printed, 'UTC')).toBeNull();
    },
  );
});

describe('reportObservedAt', () => {
  it('takes the collection date, else the report date, else the upload', () => {
    expect(iso(reportObservedAt(metadata({ date_collected: '03/05/2024', date_reported: '03/07/2024' }), UPLOADED, 'UTC'))).toBe('2024-03-05T12:00:00.000Z');
    expect(iso(reportObservedAt(metadata({ date_collected: 'see below', date_reported: '7 Mar 2024' }), UPLOADED, 'UTC'))).toBe('2024-03-07T12:00:00.000Z');
    expect(reportObservedAt(metadata({}), UPLOADED, 'UTC')).toBe(UPLOADED);
    expect(reportObservedAt(undefined, UPLOADED, null)).toBe(UPLOADED);
  });
});

describe('loincCode', () => {
  it.each([
    ['2345-7', '2345-7'],
    ['718-7', '718-7'],
    ['4548-4', '4548-4'],
    ['98979-8', '98979-8'],
    ['17856-6', '17856-6'],
    ['1-8', '1-8'],
    [' 2345-7 ', '2345-7'],
    ['2345 - 7', '2345-7'],
    ['02345-7', '2345-7'], // a leading zero changes no check digit
  ])('%j is the LOINC code %j', (raw, code) => {
    expect(loincCode(raw)).toBe(code);
  });

  it.each([['2345-8'], ['2354-7'], ['718-6'], ['2345'], ['2345-'], ['-7'], ['12345678-9'], ['LP1234-5'], ['2345-7a'], ['glucose'], ['']])('%j is not', (raw) => {
    expect(loincCode(raw)).toBeNull();
  });

  it('knows every code of the lab catalogue', () => {
    const source = readFileSync(new URL('../../seed/labCatalogue.ts', import.meta.url), 'utf8');
    const codes = [...source.matchAll(/loinc: '([^']+)'/g)].map((m) => m[1]!);
    expect(codes.length).toBeGreaterThanOrEqual(60);
    for (const code of codes) expect(loincCode(code), code).toBe(code);
  });
});

describe('chooseLoincMatch', () => {
  const match = (loinc_code: string, confidence_score: number) => ({ loinc_code, loinc_name: loinc_code, confidence_score });

  it('takes the most confident match, the first of equals', () => {
    expect(chooseLoincMatch([match('17856-6', 0.82), match('4548-4', 0.96), match('2345-7', 0.9)])?.loinc_code).toBe('4548-4');
    expect(chooseLoincMatch([match('4548-4', 0.9), match('17856-6', 0.9)])?.loinc_code).toBe('4548-4');
  });

  it('takes none below the confidence the history needs', () => {
    expect(chooseLoincMatch([match('4548-4', 0.79)])).toBeNull();
    expect(chooseLoincMatch([])).toBeNull();
    expect(chooseLoincMatch(undefined)).toBeNull();
  });

  it('takes none when the most confident match is no LOINC code, rather than the reader’s second guess', () => {
    expect(chooseLoincMatch([match('2345-8', 0.97), match('2339-0', 0.85)])).toBeNull();
  });

  it('gives the code trimmed', () => {
    expect(chooseLoincMatch([match(' 2345-7\n', 0.97)])?.loinc_code).toBe('2345-7');
  });
});

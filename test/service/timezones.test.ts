import { describe, expect, it } from 'vitest';
import { localDate, wallTimeToInstant, wallTimeToInstantWithOffset, zoneOffsetSeconds } from '../../server/lib/timezones';

const formats = new Map<string, Intl.DateTimeFormat>();
/** The offset as Intl gives it for this very instant: what the whole-hour reading must equal. */
function intlOffset(zone: string, at: Date): number {
  if (!formats.has(zone)) formats.set(zone, new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }));
  const part = formats.get(zone)!.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(part ?? '');
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60) : 0;
}

const ZONES = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'Africa/Casablanca', 'UTC'];

describe('zone offsets (cached per zone and whole hour)', () => {
  it('equal Intl’s around every change of offset of 2026, to the second, and at random instants since 1900', () => {
    for (const zone of ZONES) {
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000) {
        const a = new Date(ms);
        const b = new Date(ms + 3_600_000);
        if (intlOffset(zone, a) === intlOffset(zone, b)) continue;
        // A change within this hour: every 7 s across it.
        for (let t = ms; t <= ms + 3_600_000; t += 7_000) expect(zoneOffsetSeconds(zone, new Date(t)), `${zone} ${new Date(t).toISOString()}`).toBe(intlOffset(zone, new Date(t)));
      }
      for (let i = 0; i < 300; i++) {
        const at = new Date(Date.UTC(1900, 0, 1) + Math.floor(((i * 2654435761) % 4294967296) / 4294967296 * 160 * 365.25 * 86_400_000));
        expect(zoneOffsetSeconds(zone, at), `${zone} ${at.toISOString()}`).toBe(intlOffset(zone, at));
      }
    }
  });

  it('wallTimeToInstantWithOffset gives the instant of wallTimeToInstant and the offset there, also in a gap and an overlap', () => {
    for (const [zone, wall] of [
      ['America/New_York', '2026-03-08T02:30:00Z'], // spring-forward gap
      ['America/New_York', '2026-11-01T01:30:00Z'], // fall-back overlap
      ['Europe/London', '2026-06-01T12:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-05T01:45:00Z'],
    ] as const) {
      const { instant, offsetSeconds } = wallTimeToInstantWithOffset(zone, Date.parse(wall));
      expect(instant).toEqual(wallTimeToInstant(zone, Date.parse(wall)));
      expect(offsetSeconds).toBe(intlOffset(zone, instant));
    }
  });

  it('refuses an unknown zone as before, and reads local dates', () => {
    expect(() => zoneOffsetSeconds('Not/AZone', new Date())).toThrow(RangeError);
    expect(localDate('Pacific/Auckland', new Date('2026-06-01T13:00:00Z'))).toBe('2026-06-02');
  });
});

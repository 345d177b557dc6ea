import { describe, expect, it } from 'vitest';
import { availability } from '../../server/service/domain/appointments/availability';
import { BOOKING_KEY_SECRET, BookingKeyCodec } from '../../server/service/domain/appointments/bookingKey';
import { persistentSecret } from '../../server/service/domain/settings';
import { allZipAreas, zipArea } from '../../server/service/domain/appointments/zips';
import { isIanaTimeZone } from '../../server/contract';
import {
  assertBehaviourEnv,
  BEHAVIOUR_ENV,
  BehaviourConfig,
  BUILTIN_BEHAVIOUR,
  providerBehaviour,
  providersServing,
  setProviderBehaviour,
} from '../../server/service/providers';
import { expect422, storeKinds, useService } from './harness';
import { allSlots, CHICAGO, nextWeek } from './appointmentFixtures';
import { teamWithUser } from './orderFixtures';

const URL = '/v3/order/phlebotomy/appointment/availability';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('zip areas', () => {
  it('maps every known zip3 to a state and an IANA zone', () => {
    const areas = allZipAreas();
    expect(areas.length).toBeGreaterThan(850);
    for (const [, a] of areas) expect(isIanaTimeZone(a.zone), a.zone).toBe(true);
    const states = new Set(areas.map(([, a]) => a.state));
    expect(states.size).toBe(52); // 50 states, DC and PR
  });

  it('knows the zones that matter', () => {
    expect(zipArea('85004')?.zone).toBe('America/Phoenix');
    expect(zipArea('96813')).toMatchObject({ state: 'HI', zone: 'Pacific/Honolulu' });
    expect(zipArea('99501')).toMatchObject({ state: 'AK', zone: 'America/Anchorage' });
    expect(zipArea('00901')).toMatchObject({ state: 'PR', zone: 'America/Puerto_Rico' });
    expect(zipArea('37201')?.zone).toBe('America/Chicago'); // Nashville
    expect(zipArea('37902')?.zone).toBe('America/New_York'); // Knoxville
    expect(zipArea('32501')?.zone).toBe('America/Chicago'); // Pensacola
    expect(zipArea('79901')).toMatchObject({ state: 'TX', zone: 'America/Denver' }); // El Paso
    expect(zipArea('83814')?.zone).toBe('America/Los_Angeles'); // Coeur d'Alene
    expect(zipArea('60601-1234')).toMatchObject({ state: 'IL', zone: 'America/Chicago' });
    expect(zipArea('00001')).toBeUndefined();
  });
});

describe('availability across DST changes (domain, fixed clock)', () => {
  const codec = new BookingKeyCodec('test-secret');
  // A store stand-in: nothing booked.
  const db = { select: () => ({ from: () => ({ where: async () => [] }) }) } as never;

  it('keeps local working hours across the autumn change (America/Chicago, start 2026-11-01)', async () => {
    const r = await availability(db, codec, 'team', { ...CHICAGO } as never, '2026-11-01', new Date('2026-10-20T00:00:00Z'));
    expect(r.timezone).toBe('America/Chicago');
    expect(r.slots.map((d) => d.date)).toEqual(Array.from({ length: 14 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`));
    // Sunday 1 Nov: provider_1 closed on Sundays, provider_2 Mon-Fri → empty.
    expect(r.slots[0]!.slots).toEqual([]);
    // Sat 31 Oct is before; Mon 2 Nov (CST, UTC-6): first slot 07:00 local = 13:00Z.
    expect(r.slots[1]!.slots[0]!.start).toBe('2026-11-02T13:00:00.000Z');
    expect(r.slots[1]!.slots[0]!.is_priority).toBe(true);
    expect(r.slots[1]!.slots[0]!.provider).toBe('provider_1'); // 07-08 priority is provider_1's; provider_2 opens at 08
  });

  it('keeps local working hours across the spring change (start 2026-03-07 covers 2026-03-08)', async () => {
    const r = await availability(db, codec, 'team', { ...CHICAGO } as never, '2026-03-07', new Date('2026-03-01T00:00:00Z'));
    expect(r.slots).toHaveLength(14);
    // Sat 7 Mar (CST): 07:00 = 13:00Z; Mon 9 Mar (CDT, UTC-5): 07:00 = 12:00Z.
    expect(r.slots[0]!.slots[0]!.start).toBe('2026-03-07T13:00:00.000Z');
    expect(r.slots[2]!.slots[0]!.start).toBe('2026-03-09T12:00:00.000Z');
    for (const day of r.slots) {
      for (const s of day.slots) {
        expect(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(s.start))).toBe(day.date);
      }
    }
  });

  it('offers slots on the change day itself in Denver (provider_3 works every day)', async () => {
    const r = await availability(db, codec, 'team', { first_line: '1 Main St', city: 'Denver', state: 'CO', zip_code: '80202' } as never, '2026-11-01', new Date('2026-10-01T00:00:00Z'));
    // 1 Nov 2026 06:00 MST (clocks went back at 02:00) = 13:00Z; 31 Oct would be 12:00Z.
    expect(r.slots[0]!.slots[0]!.start).toBe('2026-11-01T13:00:00.000Z');
    expect(r.slots[0]!.slots).toHaveLength(12); // 06:00-12:00 by 30 minutes
    const end = r.slots[0]!.slots.at(-1)!;
    expect(end.end).toBe('2026-11-01T19:00:00.000Z');
  });
});

describe('availability in zones without DST (domain, fixed clock)', () => {
  const codec = new BookingKeyCodec('test-secret');
  const db = { select: () => ({ from: () => ({ where: async () => [] }) }) } as never;
  const phoenix = { first_line: '1 Main St', city: 'Phoenix', state: 'AZ', zip_code: '85004' } as never;

  it('Arizona keeps 06:00 MST = 13:00Z on both sides of the US changes', async () => {
    const spring = await availability(db, codec, 'team', phoenix, '2026-03-07', new Date('2026-03-01T00:00:00Z'));
    const autumn = await availability(db, codec, 'team', phoenix, '2026-10-31', new Date('2026-10-01T00:00:00Z'));
    expect(spring.timezone).toBe('America/Phoenix');
    for (const r of [spring, autumn]) {
      expect(r.slots).toHaveLength(14);
      for (const day of r.slots) expect(day.slots[0]!.start).toBe(`${day.date}T13:00:00.000Z`);
    }
  });

  it('Puerto Rico: provider_4, 09:00 AST = 13:00Z, weekdays only', async () => {
    const r = await availability(db, codec, 'team', { first_line: '1 Calle Sol', city: 'San Juan', state: 'PR', zip_code: '00901' } as never, '2026-03-07', new Date('2026-03-01T00:00:00Z'));
    expect(r.timezone).toBe('America/Puerto_Rico');
    expect(r.slots[0]!.slots).toEqual([]); // Saturday
    expect(r.slots[2]!.slots[0]!.start).toBe('2026-03-09T13:00:00.000Z');
    expect(r.slots[2]!.slots).toHaveLength(12); // 09:00-18:00 by 45 minutes
  });
});

describe.each(storeKinds)('availability endpoint (%s)', (kind) => {
  const svc = useService(kind);
  let lastTeamId = '';
  const post = async (body: unknown, query = '') => {
    const t = await teamWithUser(svc());
    lastTeamId = t.team.teamId;
    return svc().api(t.team.apiKey).post(`${URL}${query}`, body);
  };

  it('answers exactly 14 days in order, with merged, sorted UTC slots carrying every field', async () => {
    const start = nextWeek();
    const r = await post(CHICAGO, `?start_date=${start}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.timezone).toBe('America/Chicago');
    expect(r.body.slots).toHaveLength(14);
    expect(r.body.slots[0].date).toBe(start);
    for (let i = 1; i < 14; i += 1) expect(r.body.slots[i].date > r.body.slots[i - 1].date).toBe(true);
    const slots = allSlots(r.body);
    expect(slots.length).toBeGreaterThan(50);
    for (let i = 1; i < slots.length; i += 1) expect(slots[i].start >= slots[i - 1].start).toBe(true);
    for (const s of slots) {
      expect(Object.keys(s).sort()).toEqual(['booking_key', 'end', 'expires_at', 'is_priority', 'num_appointments_available', 'price', 'provider', 'start']);
      expect(s.start).toMatch(ISO_UTC);
      expect(s.end > s.start).toBe(true);
      expect(Number.isInteger(s.price)).toBe(true);
      expect(s.num_appointments_available).toBeGreaterThan(0);
      expect(Date.parse(s.expires_at)).toBeGreaterThan(Date.now());
      expect(Date.parse(s.expires_at)).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    }
    // Two providers: 30-minute (provider_1) and 60-minute (provider_2) slots; priority slots cost more.
    const lengths = new Set(slots.map((s) => (Date.parse(s.end) - Date.parse(s.start)) / 60_000));
    expect([...lengths].sort()).toEqual([30, 60]);
    const prio = slots.filter((s) => s.is_priority);
    const normal = slots.filter((s) => !s.is_priority);
    expect(prio.length).toBeGreaterThan(0);
    expect(Math.min(...prio.map((s) => s.price))).toBeGreaterThan(Math.max(...normal.map((s) => s.price)));
  });

  it('names the provider of every slot (extension): one serving the zip, the one its booking key names', async () => {
    const r = await post(CHICAGO, `?start_date=${nextWeek()}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const serving = providersServing(CHICAGO.zip_code).map((p) => p.slug);
    expect(serving.sort()).toEqual(['provider_1', 'provider_2']);
    const slots = allSlots(r.body);
    expect(slots.length).toBeGreaterThan(50);
    // Keys are signed with the service's secret: decode them as booking does (signature checked).
    const codec = new BookingKeyCodec(await persistentSecret(svc().db, BOOKING_KEY_SECRET));
    for (const s of slots) {
      expect(typeof s.provider).toBe('string');
      expect(serving).toContain(s.provider);
      const key = codec.decode(s.booking_key, lastTeamId);
      expect(key.p).toBe(s.provider);
      expect(key.s).toBe(s.start);
      expect(key.e).toBe(s.end);
      expect(key.pr).toBe(s.price);
      expect(key.pp).toBe(s.is_priority);
    }
    // Both providers' slots are there, told apart: 30-minute slots are provider_1's, 60-minute provider_2's.
    expect(new Set(slots.map((s) => s.provider))).toEqual(new Set(serving));
    for (const s of slots) {
      expect((Date.parse(s.end) - Date.parse(s.start)) / 60_000).toBe(s.provider === 'provider_1' ? 30 : 60);
    }
    // Within a day, slots at the same start are ordered by provider.
    for (const day of r.body.slots) {
      for (let i = 1; i < day.slots.length; i += 1) {
        const [a, b] = [day.slots[i - 1], day.slots[i]];
        if (a.start === b.start) expect(a.provider < b.provider).toBe(true);
      }
    }
  });

  it('names the provider of a single-provider zip (Denver: provider_3)', async () => {
    const r = await post({ first_line: '1 Main St', city: 'Denver', state: 'CO', zip_code: '80202' }, `?start_date=${nextWeek()}`);
    expect(r.status).toBe(200);
    const slots = allSlots(r.body);
    expect(slots.length).toBeGreaterThan(0);
    for (const s of slots) expect(s.provider).toBe('provider_3');
  });

  it('defaults start_date to today in the address zone', async () => {
    const r = await post({ first_line: '1 Aloha St', city: 'Honolulu', state: 'HI', zip_code: '96813' });
    expect(r.status).toBe(200);
    expect(r.body.timezone).toBe('Pacific/Honolulu');
    expect(r.body.slots[0].date).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Honolulu' }).format(new Date()));
    expect(r.body.slots).toHaveLength(14);
  });

  it('answers 14 empty days for an unserved zip', async () => {
    const r = await post({ first_line: '1 IRS Way', city: 'Holtsville', state: 'NY', zip_code: '00501' }, `?start_date=${nextWeek()}`);
    expect(r.status).toBe(200);
    expect(r.body.slots).toHaveLength(14);
    expect(allSlots(r.body)).toEqual([]);
  });

  it('checks the zip pattern, the state against the zip, access_notes and start_date', async () => {
    expect((await post({ ...CHICAGO, zip_code: '60601-1234' })).status).toBe(200);
    for (const zip of ['6060', '606011', '60601-123', '60601-12345', '60601 1234', 'abcde']) expect422(await post({ ...CHICAGO, zip_code: zip }), ['body', 'zip_code']);
    expect422(await post({ ...CHICAGO, state: 'NY' }), ['body', 'state']);
    expect422(await post({ ...CHICAGO, zip_code: '00001' }), ['body', 'zip_code']);
    expect((await post({ ...CHICAGO, access_notes: 'x'.repeat(1000) })).status).toBe(200);
    expect422(await post({ ...CHICAGO, access_notes: 'x'.repeat(1001) }), ['body', 'access_notes']);
    expect((await post({ ...CHICAGO, unit: '4B', second_line: null })).status).toBe(200);
    expect422(await post({ city: 'Chicago', state: 'IL', zip_code: '60601' }), ['body', 'first_line']);
    expect422(await post(CHICAGO, '?start_date=2026-02-30'), ['query', 'start_date']);
    expect422(await post(CHICAGO, '?start_date=9999-12-31'), ['query', 'start_date']);
    // A past start date is fine: its days are there, their slots are gone.
    const past = await post(CHICAGO, '?start_date=2020-01-06');
    expect(past.status).toBe(200);
    expect(past.body.slots).toHaveLength(14);
    expect(allSlots(past.body)).toEqual([]);
  });

  it('reads provider behaviour from the settings row, else PHLEBOTOMY_PROVIDER_BEHAVIOUR, else the default', async () => {
    const db = svc().db;
    const saved = process.env[BEHAVIOUR_ENV];
    try {
      delete process.env[BEHAVIOUR_ENV];
      expect(await providerBehaviour(db, 'provider_1')).toEqual(BUILTIN_BEHAVIOUR);
      process.env[BEHAVIOUR_ENV] = JSON.stringify({ default: { latency_ms: 42 }, provider_2: { failure_rate: 0.5 } });
      expect(await providerBehaviour(db, 'provider_1')).toEqual({ latency_ms: 42, failure_rate: 0 });
      expect(await providerBehaviour(db, 'provider_2')).toEqual({ latency_ms: 42, failure_rate: 0.5 });
      process.env[BEHAVIOUR_ENV] = 'not json';
      expect(await providerBehaviour(db, 'provider_2')).toEqual(BUILTIN_BEHAVIOUR);
      await setProviderBehaviour(db, { provider_2: { latency_ms: 7, failure_rate: 1 } });
      expect(await providerBehaviour(db, 'provider_2')).toEqual({ latency_ms: 7, failure_rate: 1 });
      expect(() => BehaviourConfig.parse({ provider_1: { failure_rate: 2 } })).toThrow();
      expect(() => assertBehaviourEnv({ [BEHAVIOUR_ENV]: '{"provider_1":{"latency_ms":-1}}' })).toThrow(BEHAVIOUR_ENV);
      expect(() => assertBehaviourEnv({ [BEHAVIOUR_ENV]: '{"provider_1":{"latency_ms":10}}' })).not.toThrow();
    } finally {
      if (saved === undefined) delete process.env[BEHAVIOUR_ENV];
      else process.env[BEHAVIOUR_ENV] = saved;
    }
  });

  it('documents the appointment operations in the OpenAPI document, with the API key', async () => {
    const r = await svc().inject({ method: 'GET', url: '/openapi.json' });
    const paths = r.body.paths as Record<string, Record<string, { security?: unknown[] }>>;
    const ops = Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    for (const op of [
      'POST /v3/order/phlebotomy/appointment/availability',
      'POST /v3/order/{order_id}/phlebotomy/appointment/book',
      'POST /v3/order/{order_id}/phlebotomy/appointment/request',
      'PATCH /v3/order/{order_id}/phlebotomy/appointment/reschedule',
      'GET /v3/order/{order_id}/phlebotomy/appointment',
      'PATCH /v3/order/{order_id}/phlebotomy/appointment/cancel',
      'GET /v3/order/phlebotomy/appointment/cancellation-reasons',
    ]) {
      expect(ops).toContain(op);
      const [method, path] = op.split(' ');
      expect(paths[path!]![method!.toLowerCase()]!.security).toEqual([{ apiKey: [] }]);
    }
  });

  it('needs an API key', async () => {
    const r = await svc().inject({ method: 'POST', url: URL, payload: CHICAGO });
    expect(r.status).toBe(401);
  });
});

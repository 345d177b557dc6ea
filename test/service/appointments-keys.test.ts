/**
 * Booking keys name a slot: a key from availability books (or reschedules into) its slot for any
 * order of the team at its address, until its expires_at, while the slot has places; capacity is
 * never oversold. Signed: tampered and another team's keys stay 422, expired ones 410.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appointments, appointmentSlots, jobs } from '../../server/service/db/schema';
import { BOOKING_KEY_SECRET, BookingKeyCodec } from '../../server/service/domain/appointments/bookingKey';
import { persistentSecret } from '../../server/service/domain/settings';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { JobWorker } from '../../server/service/jobs/queue';
import { expect422, expectDetail, storeKinds, useService } from './harness';
import { allSlots, behave, CHICAGO, homeOrder, phlebTeam, type PhlebTeam } from './appointmentFixtures';

const AVAIL = '/v3/order/phlebotomy/appointment/availability';
const bookUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment/book`;
const getUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment`;
const rescheduleUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment/reschedule`;
const cancelUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment/cancel`;
const MINUTES = { provider_1: 30, provider_2: 60 } as const;
const PLACES = { provider_1: 2, provider_2: 1 } as const;

describe.each(storeKinds)('booking keys name a slot (%s)', (kind) => {
  const svc = useService(kind);
  let t: PhlebTeam;
  let other: PhlebTeam;
  let dayOffset = 0;
  const api = (team: PhlebTeam = t) => svc().api(team.team.apiKey);

  beforeAll(async () => {
    t = await phlebTeam(svc());
    other = await phlebTeam(svc());
  });
  beforeEach(async () => {
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    dayOffset += 1;
  });
  // Each test looks at its own fortnight (slots are shared by every team, so tests must not collide).
  const startDate = () => new Date(Date.now() + (60 + 15 * dayOffset) * 86_400_000).toISOString().slice(0, 10);

  /** Regular (not priority) slots of a provider at the address, in the test's fortnight. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function slots(provider: keyof typeof MINUTES, team: PhlebTeam = t, address: Record<string, unknown> = CHICAGO): Promise<any[]> {
    const r = await api(team).post(`${AVAIL}?start_date=${startDate()}`, address);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return allSlots(r.body).filter((s) => s.provider === provider && !s.is_priority && Date.parse(s.end) - Date.parse(s.start) === MINUTES[provider] * 60_000);
  }
  /** The n-th slot of the provider with every place still free. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function freeSlot(provider: keyof typeof MINUTES, n = 0): Promise<any> {
    const free = (await slots(provider)).filter((s) => s.num_appointments_available === PLACES[provider]);
    expect(free.length).toBeGreaterThan(n);
    return free[n];
  }
  const placesLeft = async (provider: keyof typeof MINUTES, start: string) => (await slots(provider)).find((s) => s.start === start)?.num_appointments_available ?? 0;
  /** The capacity row of a slot: places booked of capacity. */
  async function capacityRow(provider: string, start: string) {
    const [row] = await svc()
      .db.select()
      .from(appointmentSlots)
      .where(and(eq(appointmentSlots.provider, provider), eq(appointmentSlots.startAt, new Date(start))));
    return row;
  }
  /** Appointments holding a place in the slot (reserved, pending or confirmed). */
  async function holders(provider: string, start: string) {
    return svc()
      .db.select({ id: appointments.id })
      .from(appointments)
      .where(and(eq(appointments.provider, provider), eq(appointments.startAt, new Date(start)), inArray(appointments.status, ['reserved', 'pending', 'confirmed'])));
  }

  it('two orders at one address book the same key: both confirm while places last, the next one hears the slot is full', async () => {
    const [a, b, c] = [await homeOrder(svc(), t), await homeOrder(svc(), t), await homeOrder(svc(), t)];
    const slot = await freeSlot('provider_1');
    const first = await api().post(bookUrl(a), { booking_key: slot.booking_key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await api().post(bookUrl(b), { booking_key: slot.booking_key });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    for (const r of [first, second]) expect(r.body).toMatchObject({ status: 'confirmed', provider: 'provider_1', start_at: slot.start, end_at: slot.end });
    expect(first.body.id).not.toBe(second.body.id);
    // Both places are taken: the key (still within its expires_at) now meets a full slot.
    const third = await api().post(bookUrl(c), { booking_key: slot.booking_key });
    expectDetail(third, 409);
    expect(third.body.detail).toMatch(/full/i);
    expectDetail(await api().get(getUrl(c)), 404);
    expect(await placesLeft('provider_1', slot.start)).toBe(0);
    expect(await capacityRow('provider_1', slot.start)).toMatchObject({ capacity: 2, booked: 2 });
    expect(await holders('provider_1', slot.start)).toHaveLength(2);
    // The same order with the same key again: it already has an appointment.
    expectDetail(await api().post(bookUrl(a), { booking_key: slot.booking_key }), 409);
  });

  it('N concurrent bookings of a k-place slot with one key from N orders: exactly k confirm, the rest 409 slot full; capacity rows agree', async () => {
    for (const provider of ['provider_1', 'provider_2'] as const) {
      const n = 6;
      const k = PLACES[provider];
      const orderIds: string[] = [];
      for (let i = 0; i < n; i += 1) orderIds.push(await homeOrder(svc(), t));
      const slot = await freeSlot(provider);
      const answers = await Promise.all(orderIds.map((id) => api().post(bookUrl(id), { booking_key: slot.booking_key })));
      const ok = answers.filter((r) => r.status === 200);
      const refused = answers.filter((r) => r.status !== 200);
      expect(ok.length, `${provider}: ${JSON.stringify(answers.map((r) => [r.status, r.body?.detail]))}`).toBe(k);
      for (const r of ok) expect(r.body).toMatchObject({ status: 'confirmed', start_at: slot.start, provider });
      expect(refused).toHaveLength(n - k);
      for (const r of refused) {
        expectDetail(r, 409);
        expect(r.body.detail).toMatch(/full/i);
      }
      expect(await capacityRow(provider, slot.start)).toMatchObject({ capacity: k, booked: k });
      expect(await holders(provider, slot.start)).toHaveLength(k);
      expect(await placesLeft(provider, slot.start)).toBe(0);
      // The refused orders booked nothing and can book elsewhere.
      for (const [i, r] of answers.entries()) if (r.status !== 200) expectDetail(await api().get(getUrl(orderIds[i]!)), 404);
    }
  });

  it('a reschedule into a slot with places succeeds with a key another order already used', async () => {
    const [a, b] = [await homeOrder(svc(), t), await homeOrder(svc(), t)];
    const target = await freeSlot('provider_1', 0);
    const start = await freeSlot('provider_1', 1);
    expect((await api().post(bookUrl(a), { booking_key: target.booking_key })).status).toBe(200);
    const booked = await api().post(bookUrl(b), { booking_key: start.booking_key });
    expect(booked.status).toBe(200);
    // B moves into the slot A booked with the very same key: one place is left there.
    const moved = await api().patch(rescheduleUrl(b), { booking_key: target.booking_key, appointment_notes: 'moved' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ id: booked.body.id, status: 'confirmed', start_at: target.start, appointment_notes: 'moved' });
    expect(await capacityRow('provider_1', target.start)).toMatchObject({ booked: 2 });
    expect(await capacityRow('provider_1', start.start)).toMatchObject({ booked: 0 });
    expect(await holders('provider_1', target.start)).toHaveLength(2);

    // The slot is full now: a third order cannot reschedule into it with that key (409, slot full),
    // and keeps its own slot.
    const c = await homeOrder(svc(), t);
    expect((await api().post(bookUrl(c), { booking_key: start.booking_key })).status).toBe(200);
    const full = await api().patch(rescheduleUrl(c), { booking_key: target.booking_key });
    expectDetail(full, 409);
    expect(full.body.detail).toMatch(/full/i);
    expect((await api().get(getUrl(c))).body).toMatchObject({ status: 'confirmed', start_at: start.start });
    expect(await capacityRow('provider_1', target.start)).toMatchObject({ booked: 2 });
    expect(await capacityRow('provider_1', start.start)).toMatchObject({ booked: 1 });
  });

  it('a key of a full slot books again once a cancellation or a timed-out async attempt gives a place back', async () => {
    const [a, b, c] = [await homeOrder(svc(), t), await homeOrder(svc(), t), await homeOrder(svc(), t)];
    const slot = await freeSlot('provider_2');
    expect((await api().post(bookUrl(a), { booking_key: slot.booking_key })).status).toBe(200);
    expectDetail(await api().post(bookUrl(b), { booking_key: slot.booking_key }), 409);
    expect((await api().patch(cancelUrl(a), { cancellation_reason_id: 'other' })).status).toBe(200);
    expect(await capacityRow('provider_2', slot.start)).toMatchObject({ booked: 0 });

    // An async attempt holds the place while pending...
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 }, provider_2: { latency_ms: 5, failure_rate: 1 } });
    const pending = await api().post(bookUrl(b), { booking_key: slot.booking_key, async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
    expect(pending.status).toBe(200);
    expect(pending.body.status).toBe('pending');
    expectDetail(await api().post(bookUrl(c), { booking_key: slot.booking_key }), 409);
    expect(await capacityRow('provider_2', slot.start)).toMatchObject({ booked: 1 });
    // ...and gives it back at its async timeout.
    await svc().db.update(appointments).set({ confirmDeadline: new Date(Date.now() - 1000) }).where(eq(appointments.id, pending.body.id));
    await svc().db.execute(sql`UPDATE ${jobs} SET run_at = now() WHERE kind = 'appointment.confirm' AND payload->>'appointment_id' = ${pending.body.id} AND done_at IS NULL`);
    await new JobWorker(svc().db, jobHandlers(svc().db), { batchSize: 1000 }).runDueOnce();
    expect((await api().get(getUrl(b))).body.status).toBe('cancelled');
    expect(await capacityRow('provider_2', slot.start)).toMatchObject({ booked: 0 });

    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    const again = await api().post(bookUrl(c), { booking_key: slot.booking_key });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.status).toBe('confirmed');
    expect(await capacityRow('provider_2', slot.start)).toMatchObject({ booked: 1 });
    expect(await holders('provider_2', slot.start)).toHaveLength(1);
  });

  it('keys stay signed: tampered and another team\'s keys are 422, expired ones 410, for book and reschedule alike', async () => {
    const [a, b] = [await homeOrder(svc(), t), await homeOrder(svc(), t)];
    const slot = await freeSlot('provider_1', 0);
    expect((await api().post(bookUrl(a), { booking_key: slot.booking_key })).status).toBe(200);

    const [body, sig] = slot.booking_key.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    // Point the key at another slot (or change its price, or its expiry) without re-signing it.
    const later = await freeSlot('provider_1', 1);
    const tampered = [
      { ...payload, s: later.start, e: later.end },
      { ...payload, pr: 1 },
      { ...payload, x: new Date(Date.now() + 86_400_000).toISOString() },
    ].map((p) => `${Buffer.from(JSON.stringify(p)).toString('base64url')}.${sig}`);
    const foreign = (await slots('provider_1', other)).find((s) => s.start === slot.start).booking_key;
    for (const key of [...tampered, foreign, `${slot.booking_key}x`]) {
      expect422(await api().post(bookUrl(b), { booking_key: key }), ['body', 'booking_key']);
      expect422(await api().patch(rescheduleUrl(a), { booking_key: key }), ['body', 'booking_key']);
    }
    // The foreign key books for its own team.
    const foreignOrder = await homeOrder(svc(), other);
    expect((await api(other).post(bookUrl(foreignOrder), { booking_key: foreign })).status).toBe(200);

    const codec = new BookingKeyCodec(await persistentSecret(svc().db, BOOKING_KEY_SECRET));
    const expired = codec.encode({ t: payload.t, p: payload.p, s: payload.s, e: payload.e, a: payload.a, pr: payload.pr, pp: payload.pp, x: new Date(Date.now() - 1000).toISOString() });
    expectDetail(await api().post(bookUrl(b), { booking_key: expired }), 410);
    expectDetail(await api().patch(rescheduleUrl(a), { booking_key: expired }), 410);

    // Nothing was taken by the refused calls: the slot holds A's booking and the foreign team's.
    expectDetail(await api().get(getUrl(b)), 404);
    expect(await capacityRow('provider_1', slot.start)).toMatchObject({ booked: 2 });
    expect((await api().get(getUrl(a))).body).toMatchObject({ status: 'confirmed', start_at: slot.start });
  });
});

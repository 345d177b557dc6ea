import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appointments, jobs, orders, webhookOutbox } from '../../server/service/db/schema';
import { BOOKING_KEY_SECRET, BookingKeyCodec } from '../../server/service/domain/appointments/bookingKey';
import { persistentSecret } from '../../server/service/domain/settings';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { JobWorker } from '../../server/service/jobs/queue';
import { expect422, expectDetail, storeKinds, UNKNOWN_UUID, useService } from './harness';
import { allSlots, behave, CHICAGO, homeOrder, phlebTeam, type PhlebTeam } from './appointmentFixtures';
import { createBody, insertCatalogue } from './orderFixtures';

const AVAIL = '/v3/order/phlebotomy/appointment/availability';
const bookUrl = (orderId: string) => `/v3/order/${orderId}/phlebotomy/appointment/book`;
const getUrl = (orderId: string) => `/v3/order/${orderId}/phlebotomy/appointment`;
const cancelUrl = (orderId: string) => `/v3/order/${orderId}/phlebotomy/appointment/cancel`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(storeKinds)('appointment booking (%s)', (kind) => {
  const svc = useService(kind);
  let t: PhlebTeam;
  let other: PhlebTeam;
  // Each test uses its own day, so slots never collide between tests.
  let dayOffset = 0;
  const api = (team: PhlebTeam = t) => svc().api(team.team.apiKey);
  /** A worker that runs every due job in one pass (other tests' lifecycle jobs may be due too). */
  const worker = () => new JobWorker(svc().db, jobHandlers(svc().db), { batchSize: 1000 });

  beforeAll(async () => {
    t = await phlebTeam(svc());
    other = await phlebTeam(svc());
  });
  beforeEach(async () => {
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    dayOffset += 1;
  });

  const startDate = () => new Date(Date.now() + (7 + dayOffset) * 86_400_000).toISOString().slice(0, 10);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function slotsFor(address: Record<string, unknown> = CHICAGO, team: PhlebTeam = t): Promise<any[]> {
    const r = await api(team).post(`${AVAIL}?start_date=${startDate()}`, address);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return allSlots(r.body);
  }
  /** A provider_1 regular slot (30 minutes, 2 places) on the test's day, chosen by its start. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function p1Slot(start?: string, team: PhlebTeam = t): Promise<any> {
    const slots = (await slotsFor(CHICAGO, team)).filter((s) => !s.is_priority && Date.parse(s.end) - Date.parse(s.start) === 30 * 60_000);
    const chosen = start ? slots.find((s) => s.start === start) : slots.find((s) => slots.filter((o) => o.start === s.start).length === 1);
    return chosen;
  }
  /** The first provider_1 slot with all `places` free. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function p1FreeSlot(places: number): Promise<any> {
    const slots = (await slotsFor(CHICAGO, t)).filter((s) => !s.is_priority && Date.parse(s.end) - Date.parse(s.start) === 30 * 60_000);
    return slots.find((s) => s.num_appointments_available === places && slots.filter((o) => o.start === s.start).length === 1);
  }
  async function outbox(teamId: string) {
    return svc()
      .db.select()
      .from(webhookOutbox)
      .where(and(eq(webhookOutbox.teamId, teamId), like(webhookOutbox.eventType, 'labtest.appointment.%')))
      .orderBy(webhookOutbox.id);
  }
  async function orderRow(id: string) {
    const [row] = await svc().db.select().from(orders).where(eq(orders.id, id));
    return row!;
  }

  it('books synchronously: confirmed, complete record, order scheduled, lifecycle resumed, webhook, capacity taken', async () => {
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    expect(slot.num_appointments_available).toBe(2);
    const before = (await outbox(t.team.teamId)).length;
    const r = await api().post(bookUrl(orderId), { booking_key: slot.booking_key, appointment_notes: 'Ring twice' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const a = r.body;
    expect(a.id).toMatch(UUID);
    expect(a).toMatchObject({
      user_id: t.userId,
      order_id: orderId,
      start_at: slot.start,
      end_at: slot.end,
      type: 'phlebotomy',
      provider: 'provider_1',
      status: 'confirmed',
      event_status: 'scheduled',
      iana_timezone: 'America/Chicago',
      can_reschedule: true,
      appointment_notes: 'Ring twice',
    });
    expect(a.address).toMatchObject({ ...CHICAGO, access_notes: 'Gate code 4321, park on the street' });
    expect(typeof a.location.lng).toBe('number');
    expect(a.location.lat).toBeGreaterThan(41);
    expect(a.provider_id).toMatch(/^P1-/);
    expect(a.events.map((e: { status: string }) => e.status)).toEqual(['reserved', 'scheduled']);
    for (const e of a.events) expect(typeof e.created_at).toBe('string');
    // access_notes were forwarded to the provider, and are visible in the event data.
    expect(a.event_data.provider_request.address.access_notes).toBe('Gate code 4321, park on the street');
    expect(a.events[0].data.provider_request.address.access_notes).toBe('Gate code 4321, park on the street');

    const got = await api().get(getUrl(orderId));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(a);

    const order = await orderRow(orderId);
    expect([order.status, order.lowLevelStatus, order.appointmentId]).toEqual(['collecting_sample', 'appointment_scheduled', a.id]);
    const [advance] = await svc()
      .db.select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'order.advance'), sql`${jobs.payload}->>'order_id' = ${orderId}`, sql`${jobs.payload}->>'from' = 'appointment_scheduled'`));
    expect(advance).toBeDefined();
    const events = (await outbox(t.team.teamId)).slice(before);
    expect(events.map((e) => e.eventType)).toEqual(['labtest.appointment.created']);
    expect((events[0]!.payload.data as { status: string }).status).toBe('confirmed');

    const after = await p1Slot(slot.start);
    expect(after.num_appointments_available).toBe(1);
  });

  it('refuses a garbage, tampered, foreign, other-address or expired key (a used one books again: appointments-keys.test.ts)', async () => {
    const orderB = await homeOrder(svc(), t);
    const other2 = await p1Slot();
    expect422(await api().post(bookUrl(orderB), { booking_key: 'garbage' }), ['body', 'booking_key']);
    expect422(await api().post(bookUrl(orderB), { booking_key: `${other2.booking_key}x` }), ['body', 'booking_key']);
    const [body, sig] = other2.booking_key.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), pr: 1 })).toString('base64url');
    expect422(await api().post(bookUrl(orderB), { booking_key: `${forged}.${sig}` }), ['body', 'booking_key']);
    // Another team's key for the same address.
    const foreign = await p1Slot(undefined, other);
    expect422(await api().post(bookUrl(orderB), { booking_key: foreign.booking_key }), ['body', 'booking_key']);
    // A key offered for another address.
    const elsewhere = (await slotsFor({ first_line: '1 Other St', city: 'Chicago', state: 'IL', zip_code: '60601' }))[0];
    expect422(await api().post(bookUrl(orderB), { booking_key: elsewhere.booking_key }), ['body', 'booking_key']);
    // An expired key (signed with the service's secret, as availability would have).
    const codec = new BookingKeyCodec(await persistentSecret(svc().db, BOOKING_KEY_SECRET));
    const p = JSON.parse(Buffer.from(body, 'base64url').toString());
    const expired = codec.encode({ t: p.t, p: p.p, s: p.s, e: p.e, a: p.a, pr: p.pr, pp: p.pp, x: new Date(Date.now() - 1000).toISOString() });
    expectDetail(await api().post(bookUrl(orderB), { booking_key: expired }), 410);
    // Nothing was booked for B.
    expectDetail(await api().get(getUrl(orderB)), 404);
  });

  it('checks the order (404 for another team, 422 when not at-home phlebotomy) and the body ranges', async () => {
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    expectDetail(await api(other).post(bookUrl(orderId), { booking_key: slot.booking_key }), 404);
    expectDetail(await api().post(bookUrl(UNKNOWN_UUID), { booking_key: slot.booking_key }), 404);
    const cat = await insertCatalogue(svc().db);
    const walkIn = await api().post('/v3/order/create', createBody(t.userId, cat.questPanel));
    expect(walkIn.status).toBe(200);
    expect422(await api().post(bookUrl(walkIn.body.order.id), { booking_key: slot.booking_key }), ['path', 'order_id']);

    const k = slot.booking_key;
    expect422(await api().post(bookUrl(orderId), {}), ['body', 'booking_key']);
    for (const v of [999, 10_001, 2500.5]) {
      expect422(await api().post(bookUrl(orderId), { booking_key: k, async_confirmation: true, sync_confirmation_timeout_millisecond: v }), ['body', 'sync_confirmation_timeout_millisecond']);
    }
    for (const v of [59_999, 172_800_001]) {
      expect422(await api().post(bookUrl(orderId), { booking_key: k, async_confirmation: true, async_confirmation_timeout_millisecond: v }), ['body', 'async_confirmation_timeout_millisecond']);
    }
    expect422(await api().post(bookUrl(orderId), { booking_key: k, appointment_notes: 'n'.repeat(1001) }), ['body', 'appointment_notes']);
    expect422(await api().post(bookUrl(orderId), { booking_key: k, async_confirmation: 'yes' }), ['body', 'async_confirmation']);
    // The boundaries are accepted.
    const ok = await api().post(bookUrl(orderId), {
      booking_key: k,
      appointment_notes: 'n'.repeat(1000),
      async_confirmation: true,
      sync_confirmation_timeout_millisecond: 1000,
      async_confirmation_timeout_millisecond: 172_800_000,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.status).toBe('confirmed');
    // One active appointment per order.
    const again = await p1Slot();
    expectDetail(await api().post(bookUrl(orderId), { booking_key: again.booking_key }), 409);
  });

  it('sync: a refused booking is a 500 and leaves nothing reserved; the key still works afterwards', async () => {
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 }, provider_1: { latency_ms: 5, failure_rate: 1 } });
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    const before = (await outbox(t.team.teamId)).length;
    const r = await api().post(bookUrl(orderId), { booking_key: slot.booking_key });
    expectDetail(r, 500);
    expectDetail(await api().get(getUrl(orderId)), 404);
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(2);
    expect((await outbox(t.team.teamId)).length).toBe(before);
    expect((await orderRow(orderId)).lowLevelStatus).not.toBe('appointment_scheduled');
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    const ok = await api().post(bookUrl(orderId), { booking_key: slot.booking_key });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('confirmed');
  });

  it('never oversells: concurrent bookings of a 2-place slot confirm exactly 2', async () => {
    // A slot with both places free: which slot comes first depends on the hour the suite runs at,
    // and an earlier test may have taken one place of it.
    const slot = await p1FreeSlot(2);
    const n = 5;
    const orderIds: string[] = [];
    const keys: string[] = [];
    for (let i = 0; i < n; i += 1) {
      orderIds.push(await homeOrder(svc(), t));
      keys.push((await p1Slot(slot.start)).booking_key);
    }
    const answers = await Promise.all(orderIds.map((id, i) => api().post(bookUrl(id), { booking_key: keys[i] })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 200)) expect(a.body.status).toBe('confirmed');
    expect(await p1Slot(slot.start)).toBeUndefined();
  });

  it('async: confirmed within the sync window answers confirmed', async () => {
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    const r = await api().post(bookUrl(orderId), { booking_key: slot.booking_key, async_confirmation: true });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('confirmed');
    expect(r.body.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'scheduled']);
  });

  it('async: answers pending, and a new worker on the same store confirms it after a restart', async () => {
    await behave(svc(), { default: { latency_ms: 1500, failure_rate: 0 } });
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    const before = (await outbox(t.team.teamId)).length;
    const r = await api().post(bookUrl(orderId), { booking_key: slot.booking_key, async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
    expect(r.status).toBe(200);
    expect([r.body.status, r.body.event_status]).toEqual(['pending', 'pending']);
    expect((await orderRow(orderId)).lowLevelStatus).toBe('appointment_pending');
    // The app that answered is gone; a fresh worker (as after a restart) carries the booking on.
    const app2 = await svc().buildApp();
    const w = worker();
    let status = 'pending';
    for (let i = 0; i < 100 && status === 'pending'; i += 1) {
      await w.runDueOnce();
      status = (await svc().inject({ method: 'GET', url: getUrl(orderId), key: t.team.apiKey }, app2)).body.status;
      if (status === 'pending') await sleep(50);
    }
    expect(status).toBe('confirmed');
    const order = await orderRow(orderId);
    expect(order.lowLevelStatus).toBe('appointment_scheduled');
    const types = (await outbox(t.team.teamId)).slice(before).map((e) => e.eventType);
    expect(types).toEqual(['labtest.appointment.created', 'labtest.appointment.updated']);
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(1);
  });

  it('async: at the async timeout the attempt and the pending appointment are cancelled and the place released', async () => {
    await behave(svc(), { provider_1: { latency_ms: 5, failure_rate: 1 } });
    const orderId = await homeOrder(svc(), t);
    const slot = await p1FreeSlot(2);
    const r = await api().post(bookUrl(orderId), { booking_key: slot.booking_key, async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('pending');
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(1);
    const w = worker();
    // A refused attempt is submitted again while time remains.
    await svc().db.execute(sql`UPDATE ${jobs} SET run_at = now() WHERE kind = 'appointment.confirm' AND payload->>'appointment_id' = ${r.body.id} AND done_at IS NULL`);
    await w.runDueOnce();
    const resubmitted = (await api().get(getUrl(orderId))).body;
    expect(resubmitted.status).toBe('pending');
    expect(resubmitted.events.some((e: { data: { resubmitted?: boolean } }) => e.data?.resubmitted)).toBe(true);
    // The async timeout passes.
    await svc().db.update(appointments).set({ confirmDeadline: new Date(Date.now() - 1000) }).where(eq(appointments.id, r.body.id));
    await svc().db.execute(sql`UPDATE ${jobs} SET run_at = now() WHERE kind = 'appointment.confirm' AND payload->>'appointment_id' = ${r.body.id} AND done_at IS NULL`);
    await w.runDueOnce();
    const a = (await api().get(getUrl(orderId))).body;
    expect([a.status, a.event_status]).toEqual(['cancelled', 'cancelled']);
    expect(a.events.at(-1).data.reason).toBe('async_confirmation_timeout');
    expect((await orderRow(orderId)).lowLevelStatus).toBe('appointment_cancelled');
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(2);
    // The job is done: running again changes nothing.
    await w.runDueOnce();
    expect((await api().get(getUrl(orderId))).body.events).toHaveLength(a.events.length);
  });

  it('async: an answer that arrives after the async timeout does not confirm; the attempt is cancelled', async () => {
    await behave(svc(), { default: { latency_ms: 1500, failure_rate: 0 } });
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    const r = await api().post(bookUrl(orderId), { booking_key: slot.booking_key, async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
    expect(r.body.status).toBe('pending');
    // The timeout fell before the provider's answer (ready at +1500 ms).
    await svc().db.update(appointments).set({ confirmDeadline: new Date(Date.now() - 1000) }).where(eq(appointments.id, r.body.id));
    const [row] = await svc().db.select().from(appointments).where(eq(appointments.id, r.body.id));
    const readyAt = Date.parse((row!.providerRecord as { tickets: { ready_at: string }[] }).tickets[0]!.ready_at);
    while (Date.now() <= readyAt) await sleep(50);
    await svc().db.execute(sql`UPDATE ${jobs} SET run_at = now() WHERE kind = 'appointment.confirm' AND payload->>'appointment_id' = ${r.body.id} AND done_at IS NULL`);
    await worker().runDueOnce();
    const a = (await api().get(getUrl(orderId))).body;
    expect([a.status, a.events.at(-1).data.reason]).toEqual(['cancelled', 'async_confirmation_timeout']);
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(2);
  });

  it('sync: a reservation left by a crashed request is rolled back by the job', async () => {
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    const r = await api().post(bookUrl(orderId), { booking_key: slot.booking_key });
    expect(r.status).toBe(200);
    // Simulate the crash: the appointment is still reserved when the safety job comes due.
    await svc().db.update(appointments).set({ status: 'reserved', eventStatus: 'reserved', confirmDeadline: new Date(Date.now() - 1000) }).where(eq(appointments.id, r.body.id));
    await svc().db.execute(sql`UPDATE ${jobs} SET run_at = now() WHERE kind = 'appointment.confirm' AND payload->>'appointment_id' = ${r.body.id}`);
    await worker().runDueOnce();
    const [row] = await svc().db.select().from(appointments).where(eq(appointments.id, r.body.id));
    expect(row).toBeUndefined();
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(2);
  });

  it('cancelling the order cancels its appointment and gives the place back; a pending attempt of a cancelled order ends cancelled', async () => {
    const orderId = await homeOrder(svc(), t);
    const slot = await p1Slot();
    expect((await api().post(bookUrl(orderId), { booking_key: slot.booking_key })).status).toBe(200);
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(1);
    const before = (await outbox(t.team.teamId)).length;
    expect((await api().post(`/v3/order/${orderId}/cancel`)).status).toBe(200);
    const a = (await api().get(getUrl(orderId))).body;
    expect([a.status, a.events.at(-1).data.reason]).toEqual(['cancelled', 'order_cancelled']);
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(2);
    expect((await outbox(t.team.teamId)).slice(before).map((e) => e.eventType)).toEqual(['labtest.appointment.updated']);
    expect((await orderRow(orderId)).status).toBe('cancelled');
    expect422(await api().post(bookUrl(orderId), { booking_key: (await p1Slot(slot.start)).booking_key }), ['path', 'order_id']);

    // An async attempt whose order was closed behind its back (e.g. by the lifecycle) is cancelled by the job.
    await behave(svc(), { default: { latency_ms: 1500, failure_rate: 0 } });
    const other = await homeOrder(svc(), t);
    const pending = await api().post(bookUrl(other), { booking_key: (await p1Slot(slot.start)).booking_key, async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
    expect(pending.body.status).toBe('pending');
    await svc().db.update(orders).set({ status: 'failed', lowLevelStatus: 'sample_error' }).where(eq(orders.id, other));
    await svc().db.execute(sql`UPDATE ${jobs} SET run_at = now() WHERE kind = 'appointment.confirm' AND payload->>'appointment_id' = ${pending.body.id} AND done_at IS NULL`);
    await worker().runDueOnce();
    const ended = (await api().get(getUrl(other))).body;
    expect([ended.status, ended.events.at(-1).data.reason]).toEqual(['cancelled', 'order_closed']);
    expect((await p1Slot(slot.start)).num_appointments_available).toBe(2);
  });

  describe('get, cancellation reasons, cancel', () => {
    it('lists cancellation reasons', async () => {
      const r = await api().get('/v3/order/phlebotomy/appointment/cancellation-reasons');
      expect(r.status).toBe(200);
      expect(r.body.length).toBeGreaterThan(2);
      for (const reason of r.body) expect(Object.keys(reason).sort()).toEqual(['id', 'is_refundable', 'name']);
    });

    it('cancels: place released, order appointment_cancelled, webhook; then the order can book again', async () => {
      const orderId = await homeOrder(svc(), t);
      expectDetail(await api().get(getUrl(orderId)), 404);
      expectDetail(await api().patch(cancelUrl(orderId), { cancellation_reason_id: 'other' }), 404);
      const slot = await p1Slot();
      const booked = await api().post(bookUrl(orderId), { booking_key: slot.booking_key });
      expect(booked.status).toBe(200);
      expect422(await api().patch(cancelUrl(orderId), { cancellation_reason_id: 'nope' }), ['body', 'cancellation_reason_id']);
      expect422(await api().patch(cancelUrl(orderId), {}), ['body', 'cancellation_reason_id']);
      expect422(await api().patch(cancelUrl(orderId), { cancellation_reason_id: 'other', notes: 'n'.repeat(1001) }), ['body', 'notes']);
      expectDetail(await api(other).patch(cancelUrl(orderId), { cancellation_reason_id: 'other' }), 404);
      expectDetail(await api(other).get(getUrl(orderId)), 404);
      const before = (await outbox(t.team.teamId)).length;
      const r = await api().patch(cancelUrl(orderId), { cancellation_reason_id: 'patient_unavailable', notes: 'Travelling' });
      expect(r.status).toBe(200);
      expect([r.body.status, r.body.event_status, r.body.can_reschedule]).toEqual(['cancelled', 'cancelled', false]);
      expect(r.body.events.at(-1)).toMatchObject({ status: 'cancelled', data: { reason_id: 'patient_unavailable', notes: 'Travelling' } });
      expect((await orderRow(orderId)).lowLevelStatus).toBe('appointment_cancelled');
      expect((await outbox(t.team.teamId)).slice(before).map((e) => e.eventType)).toEqual(['labtest.appointment.updated']);
      expect((await p1Slot(slot.start)).num_appointments_available).toBe(2);
      expect422(await api().patch(cancelUrl(orderId), { cancellation_reason_id: 'other' }), ['path', 'order_id']);
      // A key is not used up: until its expires_at the same key books the slot again.
      const again = await api().post(bookUrl(orderId), { booking_key: slot.booking_key });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.start_at).toBe(slot.start);
      expect((await orderRow(orderId)).lowLevelStatus).toBe('appointment_scheduled');
    });
  });
});

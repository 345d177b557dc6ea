import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appointments, jobs, orders, webhookOutbox } from '../../server/service/db/schema';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { JobWorker } from '../../server/service/jobs/queue';
import { expect422, expectDetail, storeKinds, useService } from './harness';
import { allSlots, behave, CHICAGO, homeOrder, phlebTeam, type PhlebTeam } from './appointmentFixtures';

const AVAIL = '/v3/order/phlebotomy/appointment/availability';
const bookUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment/book`;
const requestUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment/request`;
const rescheduleUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment/reschedule`;
const cancelUrl = (id: string) => `/v3/order/${id}/phlebotomy/appointment/cancel`;
const NOTES = 'Gate code 4321, park on the street';

describe.each(storeKinds)('appointment request and reschedule (%s)', (kind) => {
  const svc = useService(kind);
  let t: PhlebTeam;
  let dayOffset = 0;
  const api = () => svc().api(t.team.apiKey);

  beforeAll(async () => {
    t = await phlebTeam(svc());
  });
  beforeEach(async () => {
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    dayOffset += 1;
  });
  const startDate = () => new Date(Date.now() + (30 + dayOffset) * 86_400_000).toISOString().slice(0, 10);

  /** Slots of one provider on the test's day: provider_1 has 30-minute slots, provider_2 60-minute ones. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function slots(minutes: 30 | 60, address: Record<string, unknown> = CHICAGO): Promise<any[]> {
    const r = await api().post(`${AVAIL}?start_date=${startDate()}`, address);
    expect(r.status).toBe(200);
    return allSlots(r.body).filter((s) => !s.is_priority && Date.parse(s.end) - Date.parse(s.start) === minutes * 60_000);
  }
  const left = async (minutes: 30 | 60, start: string) => (await slots(minutes)).find((s) => s.start === start)?.num_appointments_available ?? 0;
  const orderLow = async (id: string) => (await svc().db.select().from(orders).where(eq(orders.id, id)))[0]!.lowLevelStatus;
  const appointmentEvents = async () =>
    svc()
      .db.select()
      .from(webhookOutbox)
      .where(and(eq(webhookOutbox.teamId, t.team.teamId), like(webhookOutbox.eventType, 'labtest.appointment.%')));

  it('requests an appointment without a slot, then gives it a slot by rescheduling', async () => {
    const orderId = await homeOrder(svc(), t);
    expect422(await api().post(requestUrl(orderId), { address: CHICAGO, provider: 'provider_9' }), ['body', 'provider']);
    expect422(await api().post(requestUrl(orderId), { address: CHICAGO, provider: 'provider_3' }), ['body', 'provider']);
    expect422(await api().post(requestUrl(orderId), { address: { ...CHICAGO, state: 'WI' }, provider: 'provider_1' }), ['body', 'address', 'state']);
    expect422(await api().post(requestUrl(orderId), { address: { ...CHICAGO, zip_code: '6060' }, provider: 'provider_1' }), ['body', 'address', 'zip_code']);
    expect422(await api().post(requestUrl(orderId), { address: CHICAGO, provider: 'provider_1', appointment_notes: 'n'.repeat(1001) }), ['body', 'appointment_notes']);
    expect422(await api().post(requestUrl(orderId), { provider: 'provider_1' }), ['body', 'address']);
    const before = (await appointmentEvents()).length;
    const r = await api().post(requestUrl(orderId), { address: CHICAGO, provider: 'provider_2', appointment_notes: 'Mornings' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'pending', event_status: 'pending', start_at: null, end_at: null, provider: 'provider_2', can_reschedule: true, iana_timezone: 'America/Chicago' });
    expect(r.body.address.access_notes).toBe(NOTES);
    expect(r.body.event_data.provider_request.address.access_notes).toBe(NOTES);
    expect(await orderLow(orderId)).toBe('appointment_pending');
    expect((await appointmentEvents()).slice(before).map((e) => e.eventType)).toEqual(['labtest.appointment.created']);
    expectDetail(await api().post(requestUrl(orderId), { address: CHICAGO, provider: 'provider_2' }), 409);

    const slot = (await slots(60))[0];
    const rs = await api().patch(rescheduleUrl(orderId), { booking_key: slot.booking_key });
    expect(rs.status, JSON.stringify(rs.body)).toBe(200);
    expect(rs.body).toMatchObject({ id: r.body.id, status: 'confirmed', event_status: 'scheduled', start_at: slot.start, end_at: slot.end, provider: 'provider_2', appointment_notes: 'Mornings' });
    expect(rs.body.events.at(-1).data.provider_request.address.access_notes).toBe(NOTES);
    expect(await orderLow(orderId)).toBe('appointment_scheduled');
    expect(await left(60, slot.start)).toBe(0);
  });

  it('a request takes the body address access_notes when given', async () => {
    const orderId = await homeOrder(svc(), t);
    const r = await api().post(requestUrl(orderId), { address: { ...CHICAGO, access_notes: 'Side door' }, provider: 'provider_1' });
    expect(r.status).toBe(200);
    expect(r.body.event_data.provider_request.address.access_notes).toBe('Side door');
  });

  it('reschedules a confirmed appointment to another provider: same id, old place released, new taken, notes updated, webhook', async () => {
    const orderId = await homeOrder(svc(), t);
    const first = (await slots(30))[0];
    const booked = await api().post(bookUrl(orderId), { booking_key: first.booking_key, appointment_notes: 'old' });
    expect(booked.status).toBe(200);
    expect(await left(30, first.start)).toBe(1);
    const target = (await slots(60))[2];
    const before = (await appointmentEvents()).length;
    const r = await api().patch(rescheduleUrl(orderId), { booking_key: target.booking_key, appointment_notes: 'new notes' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id: booked.body.id, provider: 'provider_2', start_at: target.start, status: 'confirmed', appointment_notes: 'new notes' });
    expect(r.body.provider_id).toMatch(/^P2-/);
    const last = r.body.events.at(-1);
    expect(last.status).toBe('scheduled');
    expect(last.data).toMatchObject({ rescheduled: true, from: { provider: 'provider_1', start_at: first.start } });
    expect(last.data.provider_request.address.access_notes).toBe(NOTES);
    expect(await left(30, first.start)).toBe(2);
    expect(await left(60, target.start)).toBe(0);
    expect(await orderLow(orderId)).toBe('appointment_scheduled');
    expect((await appointmentEvents()).slice(before).map((e) => e.eventType)).toEqual(['labtest.appointment.updated']);
    // A key names a slot, it is not used up: the target's one place is taken now (409, slot full),
    // while the first key books its slot again for another order (its places are back).
    const other = await homeOrder(svc(), t);
    const full = await api().post(bookUrl(other), { booking_key: target.booking_key });
    expectDetail(full, 409);
    expect(full.body.detail).toMatch(/full/i);
    expect((await api().post(bookUrl(other), { booking_key: first.booking_key })).status).toBe(200);
    expect(await left(30, first.start)).toBe(1);
    // (Give that place back: later tests' days overlap this one.)
    expect((await api().patch(cancelUrl(other), { cancellation_reason_id: 'other' })).status).toBe(200);
    expect(await left(30, first.start)).toBe(2);
  });

  it('a refused reschedule is a 500 and changes nothing; the key works once the provider accepts', async () => {
    const orderId = await homeOrder(svc(), t);
    const first = (await slots(30))[0];
    const booked = await api().post(bookUrl(orderId), { booking_key: first.booking_key });
    expect(booked.status).toBe(200);
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 }, provider_2: { latency_ms: 5, failure_rate: 1 } });
    const target = (await slots(60))[1];
    expectDetail(await api().patch(rescheduleUrl(orderId), { booking_key: target.booking_key }), 500);
    const now = (await api().get(`/v3/order/${orderId}/phlebotomy/appointment`)).body;
    expect(now).toMatchObject({ status: 'confirmed', provider: 'provider_1', start_at: first.start });
    expect(now.events).toEqual(booked.body.events);
    expect(await left(60, target.start)).toBe(1);
    expect(await left(30, first.start)).toBe(1);
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    const ok = await api().patch(rescheduleUrl(orderId), { booking_key: target.booking_key });
    expect(ok.status).toBe(200);
    expect(ok.body.provider).toBe('provider_2');
  });

  it('refuses reschedules without an appointment, of a cancelled one, or with a key for another address', async () => {
    const orderId = await homeOrder(svc(), t);
    const slot = (await slots(30))[0];
    expectDetail(await api().patch(rescheduleUrl(orderId), { booking_key: slot.booking_key }), 404);
    expect422(await api().patch(rescheduleUrl(orderId), {}), ['body', 'booking_key']);
    expect422(await api().patch(rescheduleUrl(orderId), { booking_key: slot.booking_key, appointment_notes: 'n'.repeat(1001) }), ['body', 'appointment_notes']);
    expect((await api().post(bookUrl(orderId), { booking_key: slot.booking_key })).status).toBe(200);
    const elsewhere = (await slots(30, { ...CHICAGO, first_line: '1 Other St' }))[1];
    expect422(await api().patch(rescheduleUrl(orderId), { booking_key: elsewhere.booking_key }), ['body', 'booking_key']);
    expect((await api().patch(cancelUrl(orderId), { cancellation_reason_id: 'other' })).status).toBe(200);
    expect422(await api().patch(rescheduleUrl(orderId), { booking_key: (await slots(30))[3].booking_key }), ['path', 'order_id']);
  });

  it('the same key used concurrently by two orders books both places of a 2-place slot', async () => {
    const a = await homeOrder(svc(), t);
    const b = await homeOrder(svc(), t);
    const slot = (await slots(30)).find((s) => s.num_appointments_available === 2);
    const answers = await Promise.all([a, b].map((id) => api().post(bookUrl(id), { booking_key: slot.booking_key })));
    expect(answers.map((x) => x.status)).toEqual([200, 200]);
    expect(await left(30, slot.start)).toBe(0);
  });

  it('a reschedule left behind by a dead request is rolled back by its safety job', async () => {
    const orderId = await homeOrder(svc(), t);
    const first = (await slots(30))[0];
    const booked = await api().post(bookUrl(orderId), { booking_key: first.booking_key });
    expect(booked.status).toBe(200);
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 }, provider_2: { latency_ms: 1500, failure_rate: 0 } });
    const target = (await slots(60))[3];
    const inFlight = api().patch(rescheduleUrl(orderId), { booking_key: target.booking_key });
    let recorded = false;
    for (let i = 0; i < 100 && !recorded; i += 1) {
      const [row] = await svc().db.select().from(appointments).where(eq(appointments.id, booked.body.id));
      recorded = !!(row!.providerRecord as { pending_reschedule?: unknown }).pending_reschedule;
      if (!recorded) await sleep(10);
    }
    expect(recorded).toBe(true);
    expect(await left(60, target.start)).toBe(0);
    // The request is taken to be dead: its deadline passes and the safety job runs.
    await svc().db.execute(
      sql`UPDATE ${appointments} SET provider_record = jsonb_set(provider_record, '{pending_reschedule,deadline}', '"2000-01-01T00:00:00.000Z"') WHERE id = ${booked.body.id}`,
    );
    await svc().db.execute(sql`UPDATE ${jobs} SET run_at = now() WHERE payload->>'appointment_id' = ${booked.body.id} AND payload ? 'reschedule_id'`);
    await new JobWorker(svc().db, jobHandlers(svc().db), { batchSize: 1000 }).runDueOnce();
    expectDetail(await inFlight, 500);
    const now = (await api().get(`/v3/order/${orderId}/phlebotomy/appointment`)).body;
    expect(now).toMatchObject({ status: 'confirmed', provider: 'provider_1', start_at: first.start });
    expect(await left(60, target.start)).toBe(1);
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
    expect((await api().patch(rescheduleUrl(orderId), { booking_key: target.booking_key })).status).toBe(200);
  });
});

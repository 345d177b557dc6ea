/**
 * An at-home order's lifecycle follows its appointment: the draw never comes before the visit's
 * time (a visit moved later is waited for), and once the sample is drawn the appointment is
 * completed with it, so it offers no reschedule or cancel that would then fail.
 */
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appointments, jobs, orders, webhookOutbox } from '../../server/service/db/schema';
import { advanceOrder } from '../../server/service/domain/orders/lifecycle';
import { allSlots, behave, CHICAGO, homeOrder, nextWeek, phlebTeam, type PhlebTeam } from './appointmentFixtures';
import { storeKinds, useService } from './harness';

const AVAIL = '/v3/order/phlebotomy/appointment/availability';
const bookUrl = (orderId: string) => `/v3/order/${orderId}/phlebotomy/appointment/book`;
const getUrl = (orderId: string) => `/v3/order/${orderId}/phlebotomy/appointment`;
const cancelUrl = (orderId: string) => `/v3/order/${orderId}/phlebotomy/appointment/cancel`;
const rescheduleUrl = (orderId: string) => `/v3/order/${orderId}/phlebotomy/appointment/reschedule`;

describe.each(storeKinds)('the order follows its appointment (%s)', (kind) => {
  const svc = useService(kind);
  let t: PhlebTeam;
  const api = () => svc().api(t.team.apiKey);

  beforeAll(async () => {
    t = await phlebTeam(svc());
  });
  beforeEach(async () => {
    await behave(svc(), { default: { latency_ms: 5, failure_rate: 0 } });
  });

  /** Books the order on the first slot a week or more ahead with two places free; answers the appointment. */
  async function book(orderId: string, dayOffset = 0) {
    const start = new Date(Date.parse(nextWeek()) + dayOffset * 86_400_000).toISOString().slice(0, 10);
    const r = await api().post(`${AVAIL}?start_date=${start}`, CHICAGO);
    expect(r.status).toBe(200);
    const slot = allSlots(r.body).find((s) => s.num_appointments_available >= 1);
    const booked = await api().post(bookUrl(orderId), { booking_key: slot.booking_key });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    return booked.body as { id: string; start_at: string; end_at: string; status: string };
  }
  const orderRow = async (id: string) => (await svc().db.select().from(orders).where(eq(orders.id, id)))[0]!;

  it('schedules the draw at or after the end of the booked visit, never before', async () => {
    const orderId = await homeOrder(svc(), t);
    const appointment = await book(orderId);
    const pending = (await svc().db.select().from(jobs).where(and(eq(jobs.kind, 'order.advance'), sql`${jobs.payload}->>'order_id' = ${orderId}`, sql`${jobs.payload}->>'from' = 'appointment_scheduled'`)));
    expect(pending).toHaveLength(1);
    expect(pending[0]!.runAt.getTime()).toBeGreaterThanOrEqual(Date.parse(appointment.end_at));
  });

  it('a lifecycle step due before the visit (the visit was moved later) waits for the visit', async () => {
    const orderId = await homeOrder(svc(), t);
    const appointment = await book(orderId);
    const outcome = await advanceOrder(svc().db, { order_id: orderId, from: 'appointment_scheduled' }, undefined, () => 0);
    expect(outcome).toEqual({ kind: 'waiting' });
    const order = await orderRow(orderId);
    expect([order.status, order.lowLevelStatus]).toEqual(['collecting_sample', 'appointment_scheduled']);
    const resumed = (await svc().db.select().from(jobs).where(and(eq(jobs.kind, 'order.advance'), sql`${jobs.payload}->>'order_id' = ${orderId}`, sql`${jobs.payload}->>'from' = 'appointment_scheduled'`))).map((j) => j.runAt.getTime());
    expect(resumed.every((at) => at >= Date.parse(appointment.end_at))).toBe(true);
    expect(resumed.length).toBeGreaterThanOrEqual(2);
    // The appointment is untouched: still confirmed, still offering its changes.
    const got = await api().get(getUrl(orderId));
    expect(got.body).toMatchObject({ status: 'confirmed', can_reschedule: true });
  });

  it('completes the appointment with the draw; a completed appointment offers no reschedule or cancel', async () => {
    const orderId = await homeOrder(svc(), t);
    await book(orderId);
    const before = (await svc().db.select().from(webhookOutbox).where(like(webhookOutbox.eventType, 'labtest.appointment.%'))).length;
    const walked = await api().post(`/v3/order/${orderId}/test?final_status=completed.at_home_phlebotomy.completed&delay=0`, {});
    expect(walked.status, JSON.stringify(walked.body)).toBe(200);

    const got = await api().get(getUrl(orderId));
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ status: 'completed', event_status: 'completed' });
    expect(got.body.events.at(-1).status).toBe('completed');
    expect(got.body.can_reschedule).toBe(false);
    const events = (await svc().db.select().from(webhookOutbox).where(like(webhookOutbox.eventType, 'labtest.appointment.%')).orderBy(webhookOutbox.id)).slice(before);
    expect(events.map((e) => [e.eventType, (e.payload.data as { status: string }).status])).toEqual([['labtest.appointment.updated', 'completed']]);

    const cancel = await api().patch(cancelUrl(orderId), { cancellation_reason_id: 'other' });
    expect(cancel.status).toBeGreaterThanOrEqual(400);
    expect(cancel.status).toBeLessThan(500);
    const [row] = await svc().db.select().from(appointments).where(eq(appointments.orderId, orderId));
    expect(row!.status).toBe('completed');
    const reschedule = await api().patch(rescheduleUrl(orderId), { booking_key: 'x' });
    expect(reschedule.status).toBeGreaterThanOrEqual(400);
    expect(reschedule.status).toBeLessThan(500);
  });

  it('a sample rejected after the draw still completes the visit', async () => {
    const drawn = await homeOrder(svc(), t);
    await book(drawn, 1);
    expect((await api().post(`/v3/order/${drawn}/test?final_status=failed.at_home_phlebotomy.sample_error&delay=0`, {})).status).toBe(200);
    expect((await api().get(getUrl(drawn))).body.status).toBe('completed');
  });
});

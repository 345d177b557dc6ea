/**
 * The `appointments` resource and the actions on an order's appointment, through the BFF's HTTP
 * API against the real service: permissions, availability, book (sync, async, failing provider),
 * request, reschedule, cancel, the list (walk, filters, sorts, cache), error codes, the audit
 * trail and the logs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/bff/db/schema';
import { ServiceClient } from '../../server/bff/upstream/client';
import { UNKNOWN_UUID, listQuery, sleep, startBff, storeKinds, type Answer, type BffFixture, type Session } from './harness';
import { startLabService, type LabServiceFixture, type WireOrder } from './ordersFixture';
import { captureLogs } from '../support/logCapture';
import {
  ACCESS_NOTES,
  CHICAGO,
  DENVER,
  behave,
  daysFromNow,
  expiredCopy,
  placeHomeOrder,
  runConfirmation,
} from './appointmentsFixture';

interface Slot {
  booking_key: string;
  start: string;
  end: string;
  expires_at: string;
  price: number;
  is_priority: boolean;
  num_appointments_available: number;
}
interface AvailabilityBody {
  timezone: string;
  slots: { date: string; slots: Slot[] }[];
  address: Record<string, unknown>;
}
interface AppointmentBody {
  id: string;
  appointment_id: string;
  order_id: string;
  user_id: string;
  status: string;
  event_status: string;
  provider: string;
  start_at: string | null;
  end_at: string | null;
  iana_timezone: string | null;
  can_reschedule: boolean;
  appointment_notes: string | null;
  address: Record<string, unknown>;
  order: { id: string; status: string | null; low_level_status: string | null; patient_name: string | null; user_id: string };
}
interface CodedError {
  message: string;
  code?: string;
  errors?: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SLOT_START = daysFromNow(7);
const DURATION = { provider_1: 30 * 60_000, provider_2: 60 * 60_000 } as const;

describe.each(storeKinds)('appointments through the BFF (%s)', (kind) => {
  let service: LabServiceFixture;
  let bff: BffFixture;
  let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer' | 'unknown', Session>;
  let users: Record<'a' | 'b' | 'c', string>;
  let foreignOrder: WireOrder;
  /** Slot starts already booked (or burnt) by a test, so each test takes its own. */
  const used = new Set<string>();
  /** Every booking key and note sent, to prove none reaches the audit trail or the logs. */
  const secrets = new Set<string>([ACCESS_NOTES, CHICAGO.first_line]);

  beforeAll(async () => {
    service = await startLabService();
    const [a, b, c] = await service.addUsers(service.team, [{ clientUserId: 'pt-appt-a' }, { clientUserId: 'pt-appt-b' }, { clientUserId: 'pt-appt-c' }]);
    users = { a: a!, b: b!, c: c! };
    const [foreignUser] = await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-appt-foreign' }]);
    await behave(service, { default: { latency_ms: 5, failure_rate: 0 } });

    // Another team's order with an appointment, booked straight at the service.
    foreignOrder = await placeHomeOrder(service, service.otherTeam, foreignUser!);
    const avail = await service.call<{ slots: { slots: Slot[] }[] }>(service.otherTeam, 'POST', `/v3/order/phlebotomy/appointment/availability?start_date=${SLOT_START}`, CHICAGO);
    const slot = avail.body.slots.flatMap((d) => d.slots).find((x) => !x.is_priority)!;
    const booked = await service.call(service.otherTeam, 'POST', `/v3/order/${foreignOrder.id}/phlebotomy/appointment/book`, { booking_key: slot.booking_key });
    expect(booked.status).toBe(200);
    used.add(slot.start);

    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    const [admin, coordinator, labOps, reviewer, unknown] = await Promise.all(
      (['admin', 'coordinator', 'lab_ops', 'reviewer', 'unknown'] as const).map((who) => bff.login(who)),
    );
    s = { admin: admin!, coordinator: coordinator!, lab_ops: labOps!, reviewer: reviewer!, unknown: unknown! };
  });
  afterAll(async () => {
    await bff?.close();
    await service?.close();
  });

  // --- helpers -------------------------------------------------------------------------------

  const action = <T = CodedError>(orderId: string, what: string, payload: unknown, session: Session = s.coordinator, url?: string) =>
    bff.request<T>({ method: 'POST', url: url ?? `/api/orders/${orderId}/appointment/${what}`, session, payload: payload as object });
  const availability = (orderId: string, payload: unknown = {}, session: Session = s.coordinator, startDate = SLOT_START) =>
    action<AvailabilityBody>(orderId, 'availability', payload, session, `/api/orders/${orderId}/appointment/availability?start_date=${startDate}`);
  const book = (orderId: string, body: Record<string, unknown>, session: Session = s.coordinator) => {
    if (typeof body.booking_key === 'string') secrets.add(body.booking_key);
    if (typeof body.appointment_notes === 'string') secrets.add(body.appointment_notes);
    return action<AppointmentBody & CodedError>(orderId, 'book', body, session);
  };
  const getOne = (orderId: string, session: Session = s.lab_ops) => bff.get<AppointmentBody>(`/api/appointments/${orderId}`, session);
  const list = (q: Parameters<typeof listQuery>[0], session: Session = s.lab_ops) => bff.get<AppointmentBody[]>(`/api/appointments${listQuery(q)}`, session);
  const idsOf = (r: Answer<AppointmentBody[]>) => r.body.map((x) => x.id);

  /** A regular (not priority) slot of the provider at the Chicago address that no test used yet. */
  async function freshSlot(orderId: string, provider: keyof typeof DURATION = 'provider_1'): Promise<Slot> {
    const r = await availability(orderId);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const slot = r.body.slots
      .flatMap((d) => d.slots)
      .find((x) => !x.is_priority && Date.parse(x.end) - Date.parse(x.start) === DURATION[provider] && !used.has(x.start));
    if (!slot) throw new Error('no free slot left');
    used.add(slot.start);
    secrets.add(slot.booking_key);
    return slot;
  }
  async function bookFresh(order: WireOrder, provider: keyof typeof DURATION = 'provider_1', extra: Record<string, unknown> = {}) {
    const slot = await freshSlot(order.id, provider);
    const r = await book(order.id, { booking_key: slot.booking_key, ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { slot, record: r.body };
  }
  const newOrder = (who: keyof typeof users = 'c', name?: [string, string]) => placeHomeOrder(service, service.team, users[who], name);

  // --- permissions ---------------------------------------------------------------------------

  describe('permissions', () => {
    let order: WireOrder;
    beforeAll(async () => {
      order = await newOrder();
    });

    it('answers 401 without a session, on reads and actions', async () => {
      expect((await bff.get('/api/appointments')).status).toBe(401);
      expect((await bff.get(`/api/appointments/${order.id}`)).status).toBe(401);
      expect((await bff.get('/api/appointments/cancellation-reasons')).status).toBe(401);
      for (const what of ['availability', 'book', 'request', 'reschedule', 'cancel']) {
        expect((await action(order.id, what, {}, null as never)).status, what).toBe(401);
      }
    });

    it('refuses reviewers and unknown roles everything (403)', async () => {
      for (const who of [s.reviewer, s.unknown]) {
        expect((await bff.get('/api/appointments', who)).status).toBe(403);
        expect((await bff.get(`/api/appointments/${order.id}`, who)).status).toBe(403);
        expect((await bff.get('/api/appointments/cancellation-reasons', who)).status).toBe(403);
        for (const what of ['availability', 'book', 'request', 'reschedule', 'cancel']) {
          const r = await action(order.id, what, {}, who);
          expect(r.status, what).toBe(403);
          expect(r.body.message).toBeTruthy();
        }
      }
    });

    it('lets lab_ops list, read and search slots but not book, request, reschedule or cancel', async () => {
      expect((await list({}, s.lab_ops)).status).toBe(200);
      expect((await availability(order.id, {}, s.lab_ops)).status).toBe(200);
      const slot = await freshSlot(order.id);
      expect((await book(order.id, { booking_key: slot.booking_key }, s.lab_ops)).status).toBe(403);
      expect((await action(order.id, 'request', { address: CHICAGO, provider: 'provider_1' }, s.lab_ops)).status).toBe(403);
      expect((await action(order.id, 'reschedule', { booking_key: slot.booking_key }, s.lab_ops)).status).toBe(403);
      expect((await action(order.id, 'cancel', { cancellation_reason_id: 'other' }, s.lab_ops)).status).toBe(403);
      // Nothing was booked by the refused call.
      expect((await getOne(order.id)).status).toBe(404);
    });

    it('needs the CSRF token on every action, availability included', async () => {
      const slot = await freshSlot(order.id);
      for (const csrf of [false, 'not-the-token']) {
        const r = await bff.request({ method: 'POST', url: `/api/orders/${order.id}/appointment/book`, session: s.coordinator, csrf, payload: { booking_key: slot.booking_key } });
        expect(r.status).toBe(403);
        expect(r.body.message).toMatch(/CSRF/);
        const a = await bff.request({ method: 'POST', url: `/api/orders/${order.id}/appointment/availability`, session: s.coordinator, csrf, payload: {} });
        expect(a.status).toBe(403);
      }
      expect((await getOne(order.id)).status).toBe(404);
    });

    it('answers the cancellation reasons to readers', async () => {
      const r = await bff.get<{ id: string; name: string; is_refundable: boolean }[]>('/api/appointments/cancellation-reasons', s.lab_ops);
      expect(r.status).toBe(200);
      expect(r.body.length).toBeGreaterThan(0);
      expect(r.body.find((x) => x.id === 'other')).toMatchObject({ name: expect.any(String), is_refundable: false });
    });
  });

  // --- availability --------------------------------------------------------------------------

  describe('availability', () => {
    let order: WireOrder;
    beforeAll(async () => {
      order = await newOrder();
    });

    it('with {} searches at the order’s patient address (zip → zip_code, access notes kept): 14 days in the address’s zone', async () => {
      const r = await availability(order.id, {});
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.timezone).toBe('America/Chicago');
      expect(r.body.slots).toHaveLength(14);
      expect(r.body.slots[0]!.date).toBe(SLOT_START);
      expect(r.body.address).toEqual({ ...CHICAGO, second_line: null, access_notes: ACCESS_NOTES });
      const slots = r.body.slots.flatMap((d) => d.slots);
      expect(slots.length).toBeGreaterThan(0);
      for (const x of slots.slice(0, 5)) {
        expect(x.start).toMatch(/Z$/);
        expect(x.end).toMatch(/Z$/);
        expect(x).toMatchObject({ booking_key: expect.any(String), price: expect.any(Number), is_priority: expect.any(Boolean) });
      }
    });

    it('with an explicit address searches there and answers it back', async () => {
      const r = await availability(order.id, DENVER, s.lab_ops);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.timezone).toBe('America/Denver');
      expect(r.body.slots).toHaveLength(14);
      expect(r.body.address).toEqual(DENVER);
      expect(r.body.slots.flatMap((d) => d.slots).length).toBeGreaterThan(0);
    });

    it('keeps the service’s field errors (422) and answers 404 for unknown, malformed and foreign orders', async () => {
      const bad = await availability(order.id, { ...CHICAGO, state: 'TX' });
      expect(bad.status).toBe(422);
      expect((bad.body as unknown as CodedError).errors).toHaveProperty('state');
      for (const id of [UNKNOWN_UUID, 'not-an-order', foreignOrder.id]) {
        const r = await availability(id, {});
        expect(r.status, id).toBe(404);
        expect(r.body).toEqual({ message: 'Order not found' });
      }
      const junkDate = await availability(order.id, {}, s.coordinator, 'soon');
      expect(junkDate.status).toBe(422);
    });
  });

  // --- book, record, list --------------------------------------------------------------------

  describe('booking', () => {
    it('books synchronously: confirmed record keyed by the order, with the order summary; readable and listed at once', async () => {
      const order = await newOrder('c', ['Dorothy', 'Hodgkin']);
      // Warm the list's walk first: the booking must drop it.
      const before = await list({ filter: { user_id: users.c } });
      expect(before.status).toBe(200);
      expect(idsOf(before)).not.toContain(order.id);

      const { slot, record } = await bookFresh(order, 'provider_1', { appointment_notes: 'Ring twice, dog is friendly' });
      expect(record.id).toBe(order.id);
      expect(record.appointment_id).toMatch(UUID);
      expect(record.appointment_id).not.toBe(order.id);
      expect(record).toMatchObject({
        order_id: order.id,
        user_id: users.c,
        status: 'confirmed',
        event_status: 'scheduled',
        provider: 'provider_1',
        start_at: slot.start,
        end_at: slot.end,
        iana_timezone: 'America/Chicago',
        can_reschedule: true,
        appointment_notes: 'Ring twice, dog is friendly',
      });
      expect(record.address).toMatchObject({ ...CHICAGO, access_notes: ACCESS_NOTES });
      expect(record.order).toEqual({
        id: order.id,
        status: 'collecting_sample',
        low_level_status: 'appointment_scheduled',
        patient_name: 'Dorothy Hodgkin',
        user_id: users.c,
      });

      const got = await getOne(order.id);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(record);

      const after = await list({ filter: { user_id: users.c } });
      expect(idsOf(after)).toContain(order.id);
      expect(after.body.find((x) => x.id === order.id)).toEqual(record);
    });

    it('keeps the walk for a while: a booking made elsewhere shows in getOne at once, in the list after the next change here', async () => {
      const elsewhere = await newOrder();
      const warm = await list({ filter: { user_id: users.c } });
      expect(idsOf(warm)).not.toContain(elsewhere.id);
      const slot = await freshSlot(elsewhere.id);
      expect((await service.call(service.team, 'POST', `/v3/order/${elsewhere.id}/phlebotomy/appointment/book`, { booking_key: slot.booking_key })).status).toBe(200);
      expect(idsOf(await list({ filter: { user_id: users.c } }))).not.toContain(elsewhere.id);
      expect((await getOne(elsewhere.id)).status).toBe(200);

      const here = await newOrder();
      await bookFresh(here);
      const now = idsOf(await list({ filter: { user_id: users.c } }));
      expect(now).toContain(elsewhere.id);
      expect(now).toContain(here.id);
    });

    it('answers 410 slot_expired for an expired key (errors.booking_key) and books nothing', async () => {
      const order = await newOrder();
      const slot = await freshSlot(order.id);
      const expired = await expiredCopy(service, slot.booking_key);
      const r = await book(order.id, { booking_key: expired });
      expect(r.status).toBe(410);
      expect(r.body.code).toBe('slot_expired');
      expect(r.body.message).toMatch(/expired/);
      expect(r.body.errors?.booking_key).toBe(r.body.message);
      expect((await getOne(order.id)).status).toBe(404);
    });

    it('books one key for two orders while the slot has places, then answers 409 slot_taken; has_appointment for an order that has one', async () => {
      const first = await newOrder();
      const second = await newOrder();
      const third = await newOrder();
      // provider_1's slots have 2 places: the key books both, for two orders at the one address.
      const { slot } = await bookFresh(first);
      const shared = await book(second.id, { booking_key: slot.booking_key });
      expect(shared.status, JSON.stringify(shared.body)).toBe(200);
      expect(shared.body.start_at).toBe(slot.start);
      const full = await book(third.id, { booking_key: slot.booking_key });
      expect(full.status).toBe(409);
      expect(full.body.code).toBe('slot_taken');
      expect(full.body.message).toMatch(/full/i);
      expect((await getOne(third.id)).status).toBe(404);

      const another = await freshSlot(first.id);
      const twice = await book(first.id, { booking_key: another.booking_key });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('has_appointment');
      const requested = await action(first.id, 'request', { address: CHICAGO, provider: 'provider_1' });
      expect(requested.status).toBe(409);
      expect((requested.body as CodedError).code).toBe('has_appointment');
    });

    it('answers 502 not_confirmed when the provider refuses a synchronous booking; nothing stays reserved', async () => {
      const order = await newOrder();
      const slot = await freshSlot(order.id);
      await behave(service, { default: { latency_ms: 5, failure_rate: 1 } });
      try {
        const r = await book(order.id, { booking_key: slot.booking_key });
        expect(r.status).toBe(502);
        expect(r.body.code).toBe('not_confirmed');
        expect(r.body.message).toMatch(/nothing was reserved/);
      } finally {
        await behave(service, { default: { latency_ms: 5, failure_rate: 0 } });
      }
      expect((await getOne(order.id)).status).toBe(404);
      expect(idsOf(await list({ filter: { order_id: order.id } }))).toEqual([]);
    });

    it('books asynchronously with a slow provider: pending at first, confirmed when polled later', async () => {
      const order = await newOrder();
      const slot = await freshSlot(order.id);
      await behave(service, { default: { latency_ms: 2500, failure_rate: 0 } });
      let appointmentId: string;
      try {
        const r = await book(order.id, { booking_key: slot.booking_key, async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body).toMatchObject({ id: order.id, status: 'pending', start_at: slot.start });
        expect(r.body.order.low_level_status).toBe('appointment_pending');
        appointmentId = r.body.appointment_id;
      } finally {
        await behave(service, { default: { latency_ms: 5, failure_rate: 0 } });
      }
      expect((await getOne(order.id)).body.status).toBe('pending');
      const deadline = Date.now() + 15_000;
      let status = 'pending';
      while (status === 'pending' && Date.now() < deadline) {
        await sleep(250);
        await runConfirmation(service, appointmentId);
        status = (await getOne(order.id)).body.status;
      }
      expect(status).toBe('confirmed');
      const got = await getOne(order.id);
      expect(got.body.order.low_level_status).toBe('appointment_scheduled');
    });

    it('keeps the service’s 422 field errors (appointment_notes over 1000 characters, an unknown key)', async () => {
      const order = await newOrder();
      const slot = await freshSlot(order.id);
      const r = await book(order.id, { booking_key: slot.booking_key, appointment_notes: 'x'.repeat(1001) });
      expect(r.status).toBe(422);
      expect(r.body.errors?.appointment_notes).toMatch(/1000/);
      const garbage = await book(order.id, { booking_key: 'garbage' });
      expect(garbage.status).toBe(422);
      expect(garbage.body.errors).toHaveProperty('booking_key');
      const notObject = await bff.request({ method: 'POST', url: `/api/orders/${order.id}/appointment/book`, session: s.coordinator, payload: [1, 2] as never });
      expect(notObject.status).toBe(422);
    });

    it('answers 404 Order not found for unknown, malformed and another team’s orders', async () => {
      const slot = await freshSlot((await newOrder()).id);
      for (const id of [UNKNOWN_UUID, 'not-an-order', foreignOrder.id]) {
        const r = await book(id, { booking_key: slot.booking_key });
        expect(r.status, id).toBe(404);
        expect(r.body).toEqual({ message: 'Order not found' });
        const q = await action(id, 'request', { address: CHICAGO, provider: 'provider_1' });
        expect(q.status, id).toBe(404);
      }
    });
  });

  // --- request, reschedule, cancel -----------------------------------------------------------

  describe('request, reschedule and cancel', () => {
    it('requests an appointment without a time, then gives it one (reschedule), then cancels it with a reason', async () => {
      const order = await newOrder();
      const requested = await action<AppointmentBody>(order.id, 'request', {
        address: { ...CHICAGO, access_notes: 'Side door please' },
        provider: 'provider_1',
        appointment_notes: 'Call first',
      });
      secrets.add('Side door please').add('Call first');
      expect(requested.status, JSON.stringify(requested.body)).toBe(200);
      expect(requested.body).toMatchObject({ id: order.id, status: 'pending', provider: 'provider_1', start_at: null, end_at: null, can_reschedule: true });
      expect(requested.body.order.low_level_status).toBe('appointment_pending');

      const slot = await freshSlot(order.id);
      const moved = await action<AppointmentBody>(order.id, 'reschedule', { booking_key: slot.booking_key });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({ id: order.id, appointment_id: requested.body.appointment_id, status: 'confirmed', start_at: slot.start, end_at: slot.end });

      const cancelled = await action<AppointmentBody>(order.id, 'cancel', { cancellation_reason_id: 'patient_unavailable', notes: 'Travelling that week' });
      secrets.add('Travelling that week');
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body).toMatchObject({ id: order.id, appointment_id: requested.body.appointment_id, status: 'cancelled', can_reschedule: false });
      expect(cancelled.body.order.low_level_status).toBe('appointment_cancelled');
      expect((await getOne(order.id)).body.status).toBe('cancelled');
    });

    it('moves a booked appointment to a new time (same appointment, new slot)', async () => {
      const order = await newOrder();
      const { record, slot: before } = await bookFresh(order);
      const slot = await freshSlot(order.id);
      const moved = await action<AppointmentBody>(order.id, 'reschedule', { booking_key: slot.booking_key, appointment_notes: 'Moved by phone' });
      secrets.add('Moved by phone');
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.appointment_id).toBe(record.appointment_id);
      expect(moved.body.start_at).toBe(slot.start);
      expect(moved.body.start_at).not.toBe(before.start);
      expect(moved.body.appointment_notes).toBe('Moved by phone');
    });

    it('refuses what cannot be done: 409 not_reschedulable, 422 cancelling twice or with an unknown reason, 404 without an appointment', async () => {
      const order = await newOrder();
      await bookFresh(order);
      const unknownReason = await action(order.id, 'cancel', { cancellation_reason_id: 'bored' });
      expect(unknownReason.status).toBe(422);
      expect(unknownReason.body.errors).toHaveProperty('cancellation_reason_id');
      expect((await action(order.id, 'cancel', { cancellation_reason_id: 'other' })).status).toBe(200);
      const again = await action(order.id, 'cancel', { cancellation_reason_id: 'other' });
      expect(again.status).toBe(422);
      expect(again.body.errors).toHaveProperty('order_id');

      const slot = await freshSlot(order.id);
      const r = await action(order.id, 'reschedule', { booking_key: slot.booking_key });
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('not_reschedulable');

      const bare = await newOrder();
      for (const id of [bare.id, UNKNOWN_UUID, 'nope', foreignOrder.id]) {
        const c = await action(id, 'cancel', { cancellation_reason_id: 'other' });
        expect(c.status, id).toBe(404);
        expect(c.body).toEqual({ message: 'No appointment for this order' });
        const m = await action(id, 'reschedule', { booking_key: slot.booking_key });
        expect(m.status, id).toBe(404);
        expect(m.body).toEqual({ message: 'No appointment for this order' });
      }
    });

    it('keeps field paths of a request’s address (422 address.zip_code)', async () => {
      const order = await newOrder();
      const r = await action(order.id, 'request', { address: { ...CHICAGO, zip_code: '6060' }, provider: 'provider_1' });
      expect(r.status).toBe(422);
      expect(r.body.errors).toHaveProperty(['address.zip_code']);
    });
  });

  // --- list: filters, sorts, getOne/getMany -------------------------------------------------

  describe('list filters and sorts', () => {
    /** a1: provider_1 booked; a2: provider_2 booked; a3: requested (no time); a4: no appointment; b1: cancelled. */
    const o: Record<'a1' | 'a2' | 'a3' | 'a4' | 'b1', WireOrder> = {} as never;
    let a1: AppointmentBody;
    let a2: AppointmentBody;
    let early: AppointmentBody;
    let late: AppointmentBody;
    const mine = (filter: Record<string, unknown> = {}, sort?: [string, string], range?: [number, number]) =>
      list({ filter: { user_id: users.a, ...filter }, ...(sort && { sort }), ...(range && { range }) });

    beforeAll(async () => {
      o.a1 = await newOrder('a', ['Ada', 'Yonath']);
      o.a2 = await newOrder('a', ['Ada', 'Yonath']);
      o.a3 = await newOrder('a', ['Ada', 'Yonath']);
      o.a4 = await newOrder('a', ['Ada', 'Yonath']);
      o.b1 = await newOrder('b', ['Lise', 'Meitner']);
      a1 = (await bookFresh(o.a1, 'provider_1')).record;
      a2 = (await bookFresh(o.a2, 'provider_2')).record;
      expect((await action(o.a3.id, 'request', { address: CHICAGO, provider: 'provider_1' })).status).toBe(200);
      await bookFresh(o.b1, 'provider_1');
      expect((await action(o.b1.id, 'cancel', { cancellation_reason_id: 'no_longer_needed' })).status).toBe(200);
      [early, late] = Date.parse(a1.start_at!) < Date.parse(a2.start_at!) ? [a1, a2] : [a2, a1];
    });

    it('lists the team’s appointments across orders, default start_at ASC with untimed ones last, total after filtering', async () => {
      const r = await mine();
      expect(r.status).toBe(200);
      expect(idsOf(r)).toEqual([early.id, late.id, o.a3.id]);
      expect(r.headers['content-range']).toBe('appointments 0-2/3');
      const all = await list({ range: [0, 999] });
      expect(idsOf(all)).not.toContain(foreignOrder.id);
      expect(idsOf(all)).not.toContain(o.a4.id);
      expect(all.raw.body).not.toContain(service.team.apiKey);
    });

    it('slices pages with Content-Range', async () => {
      const p1 = await mine({}, undefined, [0, 1]);
      const p2 = await mine({}, undefined, [2, 3]);
      expect(p1.headers['content-range']).toBe('appointments 0-1/3');
      expect(p2.headers['content-range']).toBe('appointments 2-2/3');
      expect([...idsOf(p1), ...idsOf(p2)]).toEqual([early.id, late.id, o.a3.id]);
    });

    it('filters by status and provider (one or a list), order and user', async () => {
      expect(idsOf(await mine({ status: 'confirmed' })).sort()).toEqual([o.a1.id, o.a2.id].sort());
      expect(idsOf(await mine({ status: ['pending', 'cancelled'] }))).toEqual([o.a3.id]);
      const cancelled = await list({ filter: { status: 'cancelled' }, range: [0, 999] });
      expect(idsOf(cancelled)).toContain(o.b1.id);
      expect(cancelled.body.every((x) => x.status === 'cancelled')).toBe(true);
      expect(idsOf(await mine({ provider: 'provider_2' }))).toEqual([o.a2.id]);
      expect(idsOf(await mine({ provider: ['provider_1', 'provider_9'] }))).toEqual([o.a1.id, o.a3.id]);
      expect(idsOf(await list({ filter: { user_id: users.b } }))).toEqual([o.b1.id]);
      expect(idsOf(await list({ filter: { order_id: o.a2.id } }))).toEqual([o.a2.id]);
      expect(idsOf(await list({ filter: { order_id: o.a4.id } }))).toEqual([]);
      expect(idsOf(await list({ filter: { order_id: foreignOrder.id } }))).toEqual([]);
      expect((await mine({ status: 'in_transit' })).body).toEqual([]);
    });

    it('filters start_at by instants (bounds inclusive, exactly at a boundary included) and whole UTC days; untimed ones are left out', async () => {
      const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
      expect(idsOf(await mine({ start_date: early.start_at }))).toEqual([early.id, late.id]);
      expect(idsOf(await mine({ start_date: at(early.start_at!, 1) }))).toEqual([late.id]);
      expect(idsOf(await mine({ end_date: early.start_at }))).toEqual([early.id]);
      expect(idsOf(await mine({ end_date: at(early.start_at!, -1) }))).toEqual([]);
      expect(idsOf(await mine({ start_date: late.start_at, end_date: late.start_at }))).toEqual([late.id]);
      // An offset instead of Z names the same instant.
      const offset = new Date(Date.parse(early.start_at!) - 5 * 3_600_000).toISOString().replace('Z', '-05:00').replace(/\.\d{3}-/, '-');
      expect(idsOf(await mine({ start_date: offset, end_date: offset }))).toEqual([early.id]);
      const day = early.start_at!.slice(0, 10);
      expect(idsOf(await mine({ start_date: day, end_date: day }))).toContain(early.id);
      expect((await mine({ start_date: '2099-01-01' })).body).toEqual([]);
      expect((await mine({ end_date: '2000-01-01' })).body).toEqual([]);
    });

    it('refuses malformed filters with 400 naming the filter', async () => {
      for (const filter of [{ start_date: 'tomorrow' }, { end_date: '2026-02-30' }, { order_id: 'nope' }, { user_id: 42 }, { start_date: '2026-05-02', end_date: '2026-05-01' }]) {
        const r = await list({ filter });
        expect(r.status, JSON.stringify(filter)).toBe(400);
        expect(Object.keys((r.body as unknown as CodedError).errors ?? {})[0]).toMatch(/^filter\./);
      }
    });

    it('sorts by start_at, status, provider and id in both directions; other sorts are 400', async () => {
      expect(idsOf(await mine({}, ['start_at', 'ASC']))).toEqual([early.id, late.id, o.a3.id]);
      expect(idsOf(await mine({}, ['start_at', 'DESC']))).toEqual([late.id, early.id, o.a3.id]);
      expect(idsOf(await mine({}, ['status', 'ASC']))).toEqual([early.id, late.id, o.a3.id]);
      expect(idsOf(await mine({}, ['status', 'DESC']))).toEqual([o.a3.id, early.id, late.id]);
      expect(idsOf(await mine({}, ['provider', 'ASC']))).toEqual([o.a1.id, o.a3.id, o.a2.id]);
      expect(idsOf(await mine({}, ['provider', 'DESC']))).toEqual([o.a2.id, o.a1.id, o.a3.id]);
      // id is the order id: ordered like the orders, by the order's creation.
      expect(idsOf(await mine({}, ['id', 'ASC']))).toEqual([o.a1.id, o.a2.id, o.a3.id]);
      expect(idsOf(await mine({}, ['id', 'DESC']))).toEqual([o.a3.id, o.a2.id, o.a1.id]);
      for (const sort of [['created_at', 'ASC'], ['patient_name', 'DESC'], ['start_at', 'SIDEWAYS']]) {
        const r = await list({ sort });
        expect(r.status, JSON.stringify(sort)).toBe(400);
        expect(r.body as unknown).toHaveProperty('message');
      }
    });

    it('answers getMany by order ids, leaving out orders without one, unknown and malformed ids', async () => {
      const r = await list({ filter: { id: [o.a1.id, o.b1.id, o.a4.id, UNKNOWN_UUID, 'garbage', foreignOrder.id] } });
      expect(r.status).toBe(200);
      expect(idsOf(r)).toEqual([o.a1.id, o.b1.id]);
      expect(r.headers['content-range']).toBe('appointments 0-1/2');
      expect(r.body[0]).toEqual(a1);
    });

    it('answers getOne by order id; 404 for orders without one, unknown, malformed and another team’s', async () => {
      const r = await getOne(o.a2.id);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(a2);
      expect(r.body.order).toEqual({ id: o.a2.id, status: 'collecting_sample', low_level_status: 'appointment_scheduled', patient_name: 'Ada Yonath', user_id: users.a });
      for (const id of [o.a4.id, UNKNOWN_UUID, 'not-a-uuid', foreignOrder.id]) {
        const g = await getOne(id);
        expect(g.status, id).toBe(404);
        expect(g.body).toEqual({ message: 'No appointment for this order' });
      }
    });
  });

  // --- audit and logs ----------------------------------------------------------------------

  describe('audit trail and logs', () => {
    it('audits every action with the order id, appointment id and provider, never an address, notes or a key', async () => {
      const maxId = (await bff.db.select({ id: auditEvents.id }).from(auditEvents)).reduce((m, r) => Math.max(m, Number(r.id)), 0);
      const order = await newOrder();
      expect((await availability(order.id, {})).status).toBe(200);
      const { record } = await bookFresh(order, 'provider_1', { appointment_notes: 'Bring a bandage' });
      const slot = await freshSlot(order.id);
      expect((await action(order.id, 'reschedule', { booking_key: slot.booking_key, appointment_notes: 'After lunch' })).status).toBe(200);
      secrets.add('After lunch');
      expect((await action(order.id, 'cancel', { cancellation_reason_id: 'other', notes: 'Moved away' })).status).toBe(200);
      secrets.add('Moved away');
      const second = await newOrder();
      expect((await action(second.id, 'request', { address: { ...CHICAGO, access_notes: 'Back gate 1234' }, provider: 'provider_2' })).status).toBe(200);
      secrets.add('Back gate 1234');
      const expired = await expiredCopy(service, slot.booking_key);
      expect((await book(order.id, { booking_key: expired })).status).toBe(410);
      expect((await getOne(order.id)).status).toBe(200);
      expect((await list({ filter: { order_id: order.id } })).status).toBe(200);

      const rows = await bff.db
        .select()
        .from(auditEvents)
        .where(and(gt(auditEvents.id, maxId), eq(auditEvents.resource, 'appointments')))
        .orderBy(auditEvents.id);
      const byAction = (a: string) => rows.filter((r) => r.action === a);
      expect(byAction('availability')[0]).toMatchObject({ recordIds: [order.id], outcome: 'ok', detail: { order_address: true, days: 14 } });
      expect(byAction('book')[0]).toMatchObject({
        recordIds: [order.id],
        outcome: 'ok',
        detail: { appointment_id: record.appointment_id, provider: 'provider_1', status: 'confirmed', async_confirmation: false },
      });
      expect(byAction('book')[1]).toMatchObject({ recordIds: [order.id], outcome: 'failed', statusCode: 410, detail: { code: 'slot_expired' } });
      expect(byAction('reschedule')[0]).toMatchObject({ recordIds: [order.id], detail: { appointment_id: record.appointment_id, provider: 'provider_1' } });
      expect(byAction('cancel')[0]).toMatchObject({
        recordIds: [order.id],
        detail: { appointment_id: record.appointment_id, provider: 'provider_1', status: 'cancelled', cancellation_reason_id: 'other' },
      });
      expect(byAction('request')[0]).toMatchObject({ recordIds: [second.id], detail: { provider: 'provider_2', status: 'pending' } });
      expect(byAction('read').map((r) => r.recordIds)).toContainEqual([order.id]);
      expect(byAction('list').map((r) => r.recordIds)).toContainEqual([order.id]);

      const trail = JSON.stringify(rows);
      for (const secret of [...secrets, 'Bring a bandage', 'Wacker', '60601', 'Gate code']) expect(trail).not.toContain(secret);

      // Admins read the same rows as the audit-events resource.
      const events = await bff.get<{ action: string; resource: string; record_ids: string[] }[]>(
        `/api/audit-events${listQuery({ sort: ['at', 'DESC'], range: [0, 49], filter: { resource: 'appointments', action: 'cancel' } })}`,
        s.admin,
      );
      expect(events.status).toBe(200);
      expect(events.body.map((e) => e.record_ids)).toContainEqual([order.id]);
      expect(events.raw.body).not.toContain(ACCESS_NOTES);
    });

    it('logs the path of appointment calls only: no address, notes or booking key', async () => {
      const { lines, stream } = captureLogs();
      const app = await bff.buildApp({ logger: { level: 'trace', stream } });
      const session = await bff.login('coordinator', app);
      const order = await newOrder();
      const avail = await bff.request<AvailabilityBody>({ method: 'POST', url: `/api/orders/${order.id}/appointment/availability?start_date=${SLOT_START}`, session, payload: {}, app });
      expect(avail.status).toBe(200);
      const slot = avail.body.slots.flatMap((d) => d.slots).find((x) => !x.is_priority && !used.has(x.start))!;
      used.add(slot.start);
      const booked = await bff.request({ method: 'POST', url: `/api/orders/${order.id}/appointment/book`, session, payload: { booking_key: slot.booking_key, appointment_notes: 'Knock loudly' }, app });
      expect(booked.status).toBe(200);
      const explicit = await bff.request({ method: 'POST', url: `/api/orders/${order.id}/appointment/availability`, session, payload: { ...DENVER, access_notes: 'Code 9911' }, app });
      expect(explicit.status).toBe(200);
      const log = lines.join('');
      expect(log).toContain(`"route":"/api/orders/:id/appointment/book"`); // by its pattern: no id, no value
      for (const secret of [...secrets, slot.booking_key, 'Knock loudly', 'Code 9911', DENVER.first_line, 'Wacker', '60601', 'start_date=']) {
        expect(log).not.toContain(secret);
      }
    });
  });
});

// --- the walk and the client, seen from a fake upstream --------------------------------------

describe('appointments walk (fake upstream)', () => {
  const TOTAL = 250;
  const uuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
  const USER = '0b7e6a8e-1111-4000-8000-000000000001';
  let orderCount = TOTAL;
  /** Order i was created i minutes after a fixed instant; the service lists newest first. */
  const created = (i: number) => new Date(Date.parse('2026-03-01T00:00:00Z') + i * 60_000).toISOString();
  const wireOrder = (i: number) => ({
    user_id: USER,
    id: uuid(i),
    team_id: '5f0c9a52-0000-4000-8000-00000000000a',
    patient_details: { first_name: 'Pat', last_name: `Number${i}` },
    lab_test: { id: '9a9a9a9a-0000-4000-8000-000000000001', slug: 'draw', name: 'Draw', sample_type: 'serum', method: 'at_home_phlebotomy', price: 10, is_active: true, status: 'active' },
    details: { type: 'at_home_phlebotomy', data: null },
    created_at: created(i),
    updated_at: created(i),
    events: [],
    status: 'collecting_sample',
    low_level_status: 'appointment_scheduled',
    has_abn: false,
  });
  /** Even orders have an appointment, starting a day after the order. */
  const wireAppointment = (i: number) => ({
    id: `a0000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    user_id: USER,
    order_id: uuid(i),
    address: { ...CHICAGO, access_notes: ACCESS_NOTES },
    location: { lng: -87.6, lat: 41.9 },
    start_at: new Date(Date.parse(created(i)) + 86_400_000).toISOString(),
    end_at: new Date(Date.parse(created(i)) + 86_400_000 + 1_800_000).toISOString(),
    iana_timezone: 'America/Chicago',
    type: 'phlebotomy',
    provider: i % 4 === 0 ? 'provider_1' : 'provider_2',
    status: 'confirmed',
    provider_id: `P-${i}`,
    can_reschedule: true,
    event_status: 'scheduled',
    events: [],
  });

  let seen: { method: string; path: string; query: URLSearchParams }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let server: http.Server;
  let bff: BffFixture;
  let session: Session;
  let baseUrl: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        seen.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams });
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (url.pathname === '/v3/orders') {
          const page = Number(url.searchParams.get('page'));
          const size = Number(url.searchParams.get('size'));
          const end = url.searchParams.get('end_date');
          const all = Array.from({ length: orderCount }, (_, k) => orderCount - 1 - k).filter((i) => !end || created(i) <= end);
          return send(200, { orders: all.slice((page - 1) * size, page * size).map(wireOrder), total: all.length, page, size });
        }
        const appt = /^\/v3\/order\/([^/]+)\/phlebotomy\/appointment(\/book|\/cancel)?$/.exec(url.pathname);
        if (appt) {
          const i = Number.parseInt(appt[1]!.slice(-12), 16);
          if (appt[2]) {
            // A provider takes its time.
            await sleep(100);
            return send(200, wireAppointment(i));
          }
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await sleep(orderCount > TOTAL ? 0 : 5);
          inFlight--;
          return i % 2 === 0 ? send(200, wireAppointment(i)) : send(404, { detail: 'Appointment not found' });
        }
        const order = /^\/v3\/order\/([^/]+)$/.exec(url.pathname);
        if (order) return send(200, wireOrder(Number.parseInt(order[1]!.slice(-12), 16)));
        return send(404, { detail: 'Not found' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    bff = await startBff('pglite', { serviceBaseUrl: baseUrl, serviceApiKey: 'fake-upstream-key' });
    session = await bff.login('lab_ops');
  });
  afterAll(async () => {
    await bff?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const listed = (q: Parameters<typeof listQuery>[0]) => bff.get<AppointmentBody[]>(`/api/appointments${listQuery(q)}`, session);
  const calls = (path: string | RegExp) => seen.filter((x) => (typeof path === 'string' ? x.path === path : path.test(x.path)));

  it('walks the at-home phlebotomy and walk-in orders newest first in pages of 100, reads appointments 8 at a time, keeps the walk', async () => {
    seen = [];
    const r = await listed({ range: [0, 9] });
    expect(r.status).toBe(200);
    expect(r.headers['content-range']).toBe(`appointments 0-9/${TOTAL / 2}`);
    const pages = calls('/v3/orders');
    expect(pages).toHaveLength(3);
    for (const [n, p] of pages.entries()) {
      expect(Object.fromEntries(p.query)).toMatchObject({ page: String(n + 1), size: '100', order_key: 'created_at', order_direction: 'desc' });
      expect(p.query.getAll('order_type')).toEqual(['at_home_phlebotomy', 'walk_in_test']);
    }
    expect(calls(/\/phlebotomy\/appointment$/)).toHaveLength(TOTAL);
    expect(maxInFlight).toBeLessThanOrEqual(8);
    expect(maxInFlight).toBeGreaterThan(1);
    // Earliest start first; record keyed by the order, summary from the walked order.
    expect(r.body[0]).toMatchObject({ id: uuid(0), appointment_id: wireAppointment(0).id, order: { id: uuid(0), patient_name: 'Pat Number0', low_level_status: 'appointment_scheduled' } });

    // Within 15 s, other pages, sorts and filters of the same scope cost no upstream call.
    seen = [];
    expect((await listed({ range: [10, 19], sort: ['provider', 'DESC'], filter: { status: 'confirmed', provider: 'provider_1' } })).status).toBe(200);
    expect(seen).toEqual([]);
  });

  it('pushes user_id and the end bound down to the orders walk; a change made here drops the kept walk', async () => {
    seen = [];
    const end = created(9);
    const r = await listed({ filter: { user_id: USER, end_date: end } });
    expect(r.status).toBe(200);
    expect(r.body.map((x) => x.id)).toEqual([]); // orders 0..9 start a day later than the bound
    const q = calls('/v3/orders')[0]!.query;
    expect(q.get('user_id')).toBe(USER);
    expect(q.get('end_date')).toBe(end);
    expect(calls(/\/phlebotomy\/appointment$/)).toHaveLength(10);

    const coordinator = await bff.login('coordinator');
    const booked = await bff.request({ method: 'POST', url: `/api/orders/${uuid(3)}/appointment/book`, session: coordinator, payload: { booking_key: 'k' } });
    expect(booked.status).toBe(200);
    seen = [];
    await listed({ range: [0, 9] });
    expect(calls('/v3/orders').length).toBeGreaterThan(0);
  });

  it('walks at most 2,000 orders', async () => {
    orderCount = 2150;
    const coordinator = await bff.login('coordinator');
    // Any change drops the kept walks.
    await bff.request({ method: 'POST', url: `/api/orders/${uuid(3)}/appointment/book`, session: coordinator, payload: { booking_key: 'k' } });
    seen = [];
    try {
      const r = await listed({ range: [0, 9], sort: ['id', 'DESC'] });
      expect(r.status).toBe(200);
      expect(calls('/v3/orders')).toHaveLength(20);
      expect(calls(/\/phlebotomy\/appointment$/)).toHaveLength(2000);
      expect(r.headers['content-range']).toBe('appointments 0-9/1000');
      expect(r.body[0]!.id).toBe(uuid(2148));
    } finally {
      orderCount = TOTAL;
    }
  });

  it('gives the provider-bound calls (book, reschedule) a longer timeout than the others', async () => {
    // Both answer after 100 ms: past the ordinary limit, within the provider-bound one.
    const client = new ServiceClient({ baseUrl, apiKey: 'k', timeoutMs: 30, slowTimeoutMs: 5_000 });
    await expect(client.cancelAppointment(uuid(2), { cancellation_reason_id: 'other' })).rejects.toMatchObject({ status: 504 });
    await expect(client.bookAppointment(uuid(2), { booking_key: 'k' })).resolves.toMatchObject({ order_id: uuid(2) });
  });
});

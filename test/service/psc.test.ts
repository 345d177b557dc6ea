import { VitalError } from '@tryvital/vital-node';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { orders, webhookOutbox } from '../../server/service/db/schema';
import { expect422, storeKinds, UNKNOWN_UUID, useService } from './harness';
import { insertLabAccount, type LabSlug } from './orderFixtures';
import { newOrder, pscTeam, TESTKIT_TEST, WALK_IN_TEST, weekdayDate, type PscTeam } from './pscFixtures';
import { sdkClient } from './sdkClient';

/** The wall-clock "HH:MM" and weekday of an instant in a zone. */
function wallClock(iso: string, zone: string) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', minute: '2-digit', weekday: 'long', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { time: `${get('hour')}:${get('minute')}`, weekday: get('weekday').toLowerCase() };
}

async function statusOf(svc: ReturnType<ReturnType<typeof useService>>, orderId: string) {
  const [row] = await svc.db.select({ status: orders.status, low: orders.lowLevelStatus }).from(orders).where(eq(orders.id, orderId));
  return `${row!.status}.${row!.low}`;
}

describe.each(storeKinds)('walk-in visits at patient service centers (%s)', (kind) => {
  const svc = useService(kind);
  let t: PscTeam;
  let other: PscTeam;
  const sdk = (team: PscTeam = t) => sdkClient(svc().app, team.team.apiKey);

  beforeAll(async () => {
    t = await pscTeam(svc());
    other = await pscTeam(svc());
  });

  it('answers area info and center lists the SDK parses strictly, nearest first, with hours in the center’s zone', async () => {
    const area = await sdk().labTests.getAreaInfo({ zipCode: '10001', radius: '10' });
    expect(area.zipCode).toBe('10001');
    expect(area.centralLabs.quest!.patientServiceCenters.withinRadius).toBeGreaterThanOrEqual(3);
    expect(area.centralLabs.quest!.labId).toBe(1);
    expect(area.centralLabs.sonora_quest!.patientServiceCenters.withinRadius).toBe(0);

    const nyc = await sdk().labTests.getPscInfo({ zipCode: '10001', labId: 1, radius: '25' });
    expect(nyc.slug).toBe('quest');
    const distances = nyc.patientServiceCenters.map((c) => c.distance);
    expect(distances.length).toBeGreaterThanOrEqual(3);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    expect(distances[0]).toBeLessThan(1); // the Midtown center is a few blocks from 10001
    for (const c of nyc.patientServiceCenters) {
      expect(c.siteCode).toMatch(/^QD-NYC-\d\d$/);
      expect(c.metadata.hours?.iana_timezone).toBe('America/New_York');
    }
    const phoenix = await sdk().labTests.getPscInfo({ zipCode: '85004', labId: 4 });
    expect(phoenix.patientServiceCenters.length).toBeGreaterThan(0);
    expect(phoenix.patientServiceCenters.every((c) => c.metadata.hours?.iana_timezone === 'America/Phoenix')).toBe(true);
    // Nothing within 10 miles of rural Montana.
    expect((await sdk().labTests.getPscInfo({ zipCode: '59301', labId: 1, radius: '10' })).patientServiceCenters).toEqual([]);
    expect422(await svc().api(t.team.apiKey).get('/v3/order/psc/info?zip_code=10001&lab_id=99'), ['query', 'lab_id']);
    expect422(await svc().api(t.team.apiKey).get('/v3/order/psc/info?zip_code=10001&lab_id=1&radius=7'));
  });

  it('lets the lab account decide which lab’s centers area info and center lists show', async () => {
    const accountOf = async (team: PscTeam, lab: string) =>
      ((await svc().api(team.team.apiKey).get('/v3/lab_test/lab_account')).body.data as { id: string; lab: string }[]).find((a) => a.lab === lab)!.id;
    const bio = await accountOf(t, 'bioreference');

    const area = await sdk().labTests.getAreaInfo({ zipCode: '10001', radius: '10', labAccountId: bio });
    expect(Object.keys(area.centralLabs)).toEqual(['bioreference']);
    expect(area.centralLabs.bioreference!.patientServiceCenters.withinRadius).toBeGreaterThan(0);
    const centers = await sdk().labTests.getPscInfo({ zipCode: '10001', labId: 3, labAccountId: bio });
    expect(centers.patientServiceCenters.length).toBeGreaterThan(0);
    expect(centers.patientServiceCenters.every((c) => c.siteCode.startsWith('BR-'))).toBe(true);

    // A lab account without walk-in centers lists no lab at all, rather than every lab's.
    // (lab_slug is free text in the store; today's seeded accounts are all of labs with centers.)
    const noCenters = await insertLabAccount(svc().db, t.team.teamId, { lab: 'spiriplex' as LabSlug });
    expect((await sdk().labTests.getAreaInfo({ zipCode: '10001', labAccountId: noCenters })).centralLabs).toEqual({});

    // Asking for another lab's centers with this account is a contradiction, said where it lies.
    for (const call of [
      () => sdk().labTests.getPscInfo({ zipCode: '10001', labId: 1, labAccountId: bio }),
      () => sdk().labTests.getAreaInfo({ zipCode: '10001', lab: 'quest', labAccountId: bio }),
    ]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VitalError);
      expect((err as VitalError).statusCode).toBe(422);
      const detail = ((err as VitalError).body as { detail: unknown }).detail as { loc: unknown[]; msg: string }[];
      expect(detail[0]!.loc).toEqual(['query', 'lab_account_id']);
      expect(detail[0]!.msg).toMatch(/bioreference account/);
    }

    // Another team's account, or one that does not exist, is not found.
    for (const id of [await accountOf(other, 'bioreference'), UNKNOWN_UUID]) {
      for (const call of [() => sdk().labTests.getPscInfo({ zipCode: '10001', labId: 3, labAccountId: id }), () => sdk().labTests.getAreaInfo({ zipCode: '10001', labAccountId: id })]) {
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(VitalError);
        expect((err as VitalError).statusCode).toBe(404);
        expect((err as VitalError).body).toEqual({ detail: 'Lab account not found' });
      }
    }
  });

  it('offers slots only within each center’s opening hours, in its own zone', async () => {
    const phx = await sdk().labTests.getPscInfo({ zipCode: '85004', labId: 1 });
    const center = phx.patientServiceCenters[0]!;
    const hours = center.metadata.hours as Record<string, { open: string; close: string } | null>;
    const start = weekdayDate(1);
    const answer = await sdk().labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: [center.siteCode], startDate: start });
    expect(answer.timezone).toBe('America/Phoenix');
    expect(answer.slots).toHaveLength(7);
    expect(answer.slots[0]!.date).toBe(start);
    expect(answer.slots[0]!.location?.code).toBe(center.siteCode);
    const all = answer.slots.flatMap((d) => d.slots);
    expect(all.length).toBeGreaterThan(20);
    for (const day of answer.slots) {
      for (const slot of day.slots) {
        const local = wallClock(slot.start.toISOString(), 'America/Phoenix');
        const open = hours[local.weekday];
        expect(open, `${center.siteCode} is closed on ${local.weekday}`).toBeTruthy();
        expect(local.time >= open!.open && wallClock(slot.end.toISOString(), 'America/Phoenix').time <= open!.close).toBe(true);
      }
    }
    // The first Monday slot opens the day exactly at the posted opening time.
    expect(wallClock(answer.slots[0]!.slots[0]!.start.toISOString(), 'America/Phoenix').time).toBe(hours.monday!.open);
    expect422(await svc().api(t.team.apiKey).post('/v3/order/psc/appointment/availability?lab=quest&site_codes=LC-NYC-01'), ['query', 'site_codes', 0]);
  });

  it('books, reads, reschedules and cancels a walk-in visit through the SDK, with the order and webhooks following', async () => {
    const orderId = await newOrder(svc(), t, WALK_IN_TEST);
    const info = await sdk().labTests.getOrderPscInfo(orderId);
    expect(info.slug).toBe('quest');
    const nearest = info.patientServiceCenters[0]!;
    const avail = await sdk().labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: [nearest.siteCode, info.patientServiceCenters[1]!.siteCode], startDate: weekdayDate(2) });
    const [first, second] = [avail.slots[0]!.slots[3]!, avail.slots.find((d) => d.location?.code !== nearest.siteCode)!.slots[5]!];

    const booked = await sdk().labTests.bookPscAppointment(orderId, { bookingKey: first.bookingKey! });
    expect(booked).toMatchObject({ type: 'patient_service_center', provider: 'quest', status: 'confirmed', orderId, ianaTimezone: 'America/New_York', canReschedule: true });
    expect(booked.startAt?.toISOString()).toBe(first.start.toISOString());
    expect(booked.address.firstLine).toBeTruthy();
    expect(await statusOf(svc(), orderId)).toBe('collecting_sample.appointment_scheduled');
    expect((await sdk().labTests.getPscAppointment(orderId)).id).toBe(booked.id);

    const moved = await sdk().labTests.reschedulePscAppointment(orderId, { bookingKey: second.bookingKey! });
    expect(moved.id).toBe(booked.id);
    expect(moved.startAt?.toISOString()).toBe(second.start.toISOString());
    expect(moved.eventData?.site_code).not.toBe(nearest.siteCode);

    const reasons = await sdk().labTests.getPscAppointmentCancellationReason();
    expect(reasons.map((r) => r.id)).toContain('patient_unavailable');
    const cancelled = await sdk().labTests.cancelPscAppointment(orderId, { cancellationReasonId: 'patient_unavailable', note: 'travelling' });
    expect(cancelled.status).toBe('cancelled');
    expect(await statusOf(svc(), orderId)).toBe('collecting_sample.appointment_cancelled');
    // The first slot's place was given back by the reschedule, the second one's by the cancel.
    const again = await sdk().labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: [nearest.siteCode], startDate: weekdayDate(2) });
    expect(again.slots[0]!.slots[3]!.numAppointmentsAvailable).toBe(first.numAppointmentsAvailable);

    const events = await svc()
      .db.select({ type: webhookOutbox.eventType, payload: webhookOutbox.payload })
      .from(webhookOutbox)
      .where(and(eq(webhookOutbox.teamId, t.team.teamId)));
    const mine = events.filter((e) => (e.payload as { data: { id?: string } }).data.id === booked.id).map((e) => e.type);
    expect(mine).toEqual(['labtest.appointment.created', 'labtest.appointment.updated', 'labtest.appointment.updated']);
  });

  it('refuses a full slot, and accepts the at-home spelling of the cancel body', async () => {
    const info = await sdk().labTests.getPscInfo({ zipCode: '10001', labId: 1 });
    const site = info.patientServiceCenters[0]!.siteCode;
    const slot = (await sdk().labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: [site], startDate: weekdayDate(3, 1) })).slots[0]!.slots[0]!;
    const places = slot.numAppointmentsAvailable;
    const booked: string[] = [];
    for (let i = 0; i < places; i++) {
      const orderId = await newOrder(svc(), t, WALK_IN_TEST);
      await sdk().labTests.bookPscAppointment(orderId, { bookingKey: slot.bookingKey! });
      booked.push(orderId);
    }
    const late = await newOrder(svc(), t, WALK_IN_TEST);
    const refused = await svc().api(t.team.apiKey).post(`/v3/order/${late}/psc/appointment/book`, { booking_key: slot.bookingKey });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/slot is full/);
    const offered = (await sdk().labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: [site], startDate: weekdayDate(3, 1) })).slots[0]!.slots;
    expect(offered.some((s) => s.start.getTime() === slot.start.getTime())).toBe(false);

    const snake = await svc().api(t.team.apiKey).patch(`/v3/order/${booked[0]}/psc/appointment/cancel`, { cancellation_reason_id: 'no_longer_needed', notes: 'found another lab' });
    expect(snake.status, JSON.stringify(snake.body)).toBe(200);
    expect(snake.body.status).toBe('cancelled');
    expect(snake.body.events.at(-1).data).toMatchObject({ reason_id: 'no_longer_needed', notes: 'found another lab' });
    expect((await svc().api(t.team.apiKey).post(`/v3/order/${late}/psc/appointment/book`, { booking_key: slot.bookingKey })).status).toBe(200);
    expect422(await svc().api(t.team.apiKey).patch(`/v3/order/${late}/psc/appointment/cancel`, { cancellationReasonId: 'because' }), ['body', 'cancellationReasonId']);
    expect422(await svc().api(t.team.apiKey).patch(`/v3/order/${late}/psc/appointment/cancel`, { note: 'no reason' }));
  });

  it('refuses a visit for an order that is not walk-in, and answers another team’s order like an unknown one', async () => {
    const info = await sdk().labTests.getPscInfo({ zipCode: '10001', labId: 1 });
    const slot = (await sdk().labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: [info.patientServiceCenters[1]!.siteCode], startDate: weekdayDate(4) })).slots[0]!.slots[0]!;
    const kit = await newOrder(svc(), t, TESTKIT_TEST);
    const wrong = await svc().api(t.team.apiKey).post(`/v3/order/${kit}/psc/appointment/book`, { booking_key: slot.bookingKey });
    expect(expect422(wrong, ['path', 'order_id'])[0]!.msg).toMatch(/walk_in_test/);

    const theirs = await newOrder(svc(), other, WALK_IN_TEST);
    for (const r of [
      await svc().api(t.team.apiKey).post(`/v3/order/${theirs}/psc/appointment/book`, { booking_key: slot.bookingKey }),
      await svc().api(t.team.apiKey).get(`/v3/order/${theirs}/psc/info`),
      await svc().api(t.team.apiKey).get(`/v3/order/${theirs}/psc/appointment`),
      await svc().api(t.team.apiKey).get(`/v3/order/${UNKNOWN_UUID}/psc/appointment`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe('Order not found');
    }
    // The other team cannot use this team's key either.
    expect422(await svc().api(other.team.apiKey).post(`/v3/order/${theirs}/psc/appointment/book`, { booking_key: slot.bookingKey }), ['body', 'booking_key']);
    await expect(sdk().labTests.getPscAppointment(theirs)).rejects.toBeInstanceOf(VitalError);
  });
});

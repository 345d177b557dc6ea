/**
 * Walk-in visits and on-site draws through the BFF against the real service: nearest centers with
 * their hours, slots in the center's zone, book / reschedule / cancel, roles, the audit trail.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/bff/db/schema';
import { UNKNOWN_UUID, startBff, storeKinds, type BffFixture, type Session } from './harness';
import { startLabService, type LabServiceFixture } from './ordersFixture';
import { placeHomeOrder } from './appointmentsFixture';
import { placeOnSiteOrder, placeWalkInOrder } from './walkInFixture';

interface Center {
  site_code: string;
  name: string;
  distance_miles: number;
  iana_timezone: string | null;
  hours: Record<string, { open: string; close: string } | null>;
}
interface Availability {
  site_code: string;
  iana_timezone: string;
  days: { date: string; slots: { booking_key: string; start: string; end: string; num_appointments_available: number }[] }[];
}
interface Visit {
  visit: { id: string; status: string; type: string; start_at: string; iana_timezone: string; event_data: Record<string, unknown> } | null;
  message?: string;
  code?: string;
}

/** A weekday two weeks ahead (every center is open Monday to Friday). */
function nextWeekday(weeks: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7) + weeks * 7 + 1);
  return d.toISOString().slice(0, 10);
}

describe.each(storeKinds)('walk-in visits through the BFF (%s)', (kind) => {
  let service: LabServiceFixture;
  let bff: BffFixture;
  let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer', Session>;
  let userId: string;
  let foreignUser: string;

  beforeAll(async () => {
    service = await startLabService();
    [userId] = await service.addUsers(service.team, [{ clientUserId: 'pt-walkin-a' }]) as [string];
    [foreignUser] = await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-walkin-foreign' }]) as [string];
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    const [admin, coordinator, labOps, reviewer] = await Promise.all((['admin', 'coordinator', 'lab_ops', 'reviewer'] as const).map((who) => bff.login(who)));
    s = { admin: admin!, coordinator: coordinator!, lab_ops: labOps!, reviewer: reviewer! };
  });
  afterAll(async () => {
    await bff?.close();
    await service?.close();
  });

  const post = <T = Visit>(url: string, payload: object, session: Session = s.coordinator) => bff.request<T>({ method: 'POST', url, session, payload });

  it('lists the nearest centers with hours in their zone, books one of its slots, reschedules and cancels, audited without keys', async () => {
    const order = await placeWalkInOrder(service, service.team, userId);
    const centers = await bff.get<{ lab: string; centers: Center[] }>(`/api/orders/${order.id}/walk-in/centers`, s.coordinator);
    expect(centers.status, JSON.stringify(centers.body)).toBe(200);
    expect(centers.body.lab).toBe('quest');
    const distances = centers.body.centers.map((c) => c.distance_miles);
    expect(distances.length).toBeGreaterThanOrEqual(2);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    const nearest = centers.body.centers[0]!;
    expect(nearest.iana_timezone).toBe('America/Chicago');
    expect(nearest.hours.monday).toMatchObject({ open: expect.stringMatching(/^\d\d:\d\d$/) });

    const day = nextWeekday(2);
    const avail = await bff.get<Availability>(`/api/orders/${order.id}/walk-in/availability?site_code=${nearest.site_code}&start_date=${day}`, s.coordinator);
    expect(avail.status, JSON.stringify(avail.body)).toBe(200);
    expect(avail.body.iana_timezone).toBe('America/Chicago');
    expect(avail.body.days[0]!.date).toBe(day);
    const [first, later] = [avail.body.days[0]!.slots[0]!, avail.body.days[0]!.slots[4]!];
    // The first slot starts at the posted Tuesday opening time, Chicago time.
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Chicago', hour: '2-digit', minute: '2-digit' }).format(new Date(first.start));
    expect(local).toBe(nearest.hours.tuesday!.open);

    const booked = await post(`/api/orders/${order.id}/walk-in/book`, { booking_key: first.booking_key });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body.visit).toMatchObject({ type: 'patient_service_center', status: 'confirmed', start_at: first.start, iana_timezone: 'America/Chicago' });
    expect(booked.body.visit!.event_data.site_code).toBe(nearest.site_code);
    const again = await post(`/api/orders/${order.id}/walk-in/book`, { booking_key: later.booking_key });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('has_appointment');

    const moved = await post(`/api/orders/${order.id}/walk-in/reschedule`, { booking_key: later.booking_key });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.visit!.start_at).toBe(later.start);
    const cancelled = await post(`/api/orders/${order.id}/walk-in/cancel`, { cancellation_reason_id: 'patient_unavailable', note: 'flu' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.visit!.status).toBe('cancelled');
    const read = await bff.get<Visit>(`/api/orders/${order.id}/walk-in/visit`, s.lab_ops);
    expect(read.body.visit!.status).toBe('cancelled');

    const trail = await bff.db.select().from(auditEvents).where(eq(auditEvents.resource, 'walk-in'));
    const mine = trail.filter((e) => e.recordIds.includes(order.id));
    expect(mine.map((e) => e.action)).toEqual(expect.arrayContaining(['read', 'availability', 'book', 'reschedule', 'cancel']));
    expect(mine.every((e) => e.patientIds.includes(userId))).toBe(true);
    const text = JSON.stringify(mine);
    for (const secret of [first.booking_key, later.booking_key, 'flu', '233 S Wacker']) expect(text).not.toContain(secret);
  });

  it('keeps walk-in visits to walk-in orders and to the roles allowed, and another team’s order is unknown', async () => {
    const order = await placeWalkInOrder(service, service.team, userId);
    expect((await bff.get(`/api/orders/${order.id}/walk-in/centers`, s.reviewer)).status).toBe(403);
    expect((await bff.get(`/api/orders/${order.id}/walk-in/centers`, s.lab_ops)).status).toBe(200);
    expect((await post(`/api/orders/${order.id}/walk-in/book`, { booking_key: 'x.y' }, s.lab_ops)).status).toBe(403);
    const home = await placeHomeOrder(service, service.team, userId);
    const wrong = await bff.get<Visit>(`/api/orders/${home.id}/walk-in/centers`, s.coordinator);
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('not_walk_in');
    const foreign = await placeWalkInOrder(service, service.otherTeam, foreignUser);
    for (const id of [foreign.id, UNKNOWN_UUID, 'not-a-uuid']) {
      const r = await bff.get<Visit>(`/api/orders/${id}/walk-in/centers`, s.coordinator);
      expect(r.status).toBe(404);
      expect(r.body.message).toBe('Order not found');
    }
  });

  it('lets lab operations mark an on-site draw completed, once, and nobody else', async () => {
    const onSite = await placeOnSiteOrder(service, service.team, userId);
    const denied = await bff.request({ method: 'POST', url: `/api/orders/${onSite.id}/draw-completed`, session: s.coordinator });
    expect(denied.status).toBe(403);
    const done = await bff.request<{ order: { status: string; low_level_status: string } }>({ method: 'POST', url: `/api/orders/${onSite.id}/draw-completed`, session: s.lab_ops });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.order).toMatchObject({ status: 'sample_with_lab', low_level_status: 'draw_completed' });
    const repeat = await bff.request<{ order: { low_level_status: string } }>({ method: 'POST', url: `/api/orders/${onSite.id}/draw-completed`, session: s.admin });
    expect(repeat.body.order.low_level_status).toBe('draw_completed');
    const walkIn = await placeWalkInOrder(service, service.team, userId);
    const wrong = await bff.request<{ code: string }>({ method: 'POST', url: `/api/orders/${walkIn.id}/draw-completed`, session: s.lab_ops });
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('not_on_site');
    const [row] = await bff.db.select().from(auditEvents).where(and(eq(auditEvents.resource, 'orders'), eq(auditEvents.action, 'update')));
    expect(row?.recordIds).toContain(onSite.id);
  });
});

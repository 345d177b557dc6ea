import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { Appointment, Order, PatientAddress, PatientDetails } from '../../server/contract';
import { seededRandom } from '../../server/lib/random';
import { appointments, jobs, orderEvents, orders, users, webhookOutbox } from '../../server/service/db/schema';
import { presentAppointment } from '../../server/service/domain/appointments/present';
import { LIFECYCLE } from '../../server/service/domain/orders/lifecycle';
import { presentOrders } from '../../server/service/domain/orders/present';
import { seedDemoOrders } from '../../server/service/seed/demoOrders';
import { storeKinds, useService } from './harness';
import { ensureLab, insertLabAccount, insertLabTests, insertUser } from './lifecycleFixtures';

const NOW = new Date('2026-06-01T12:00:00Z');
const DAY = 86_400_000;

describe.each(storeKinds)('demo orders seed (%s)', (kind) => {
  const svc = useService(kind);
  let teamId: string;
  let questAccount: string;
  let questTests: string[];
  let written: number;
  type Row = typeof orders.$inferSelect;
  let rows: Row[];
  let events: Map<string, (typeof orderEvents.$inferSelect)[]>;

  /** A team with users, an active quest account and a pending bioreference one. */
  const setUpTeam = async () => {
    const team = await svc().createTeam();
    for (let i = 0; i < 12; i++) {
      const id = await insertUser(svc().db, team.teamId);
      await svc()
        .db.update(users)
        .set({ createdOn: new Date(NOW.getTime() - (100 - i) * DAY), fallbackBirthDate: i % 2 ? `19${60 + i}-03-1${i % 9}` : null })
        .where(eq(users.id, id));
    }
    const account = await insertLabAccount(svc().db, team.teamId, 'quest', 'active');
    await insertLabAccount(svc().db, team.teamId, 'bioreference', 'pending');
    return { teamId: team.teamId, account };
  };

  beforeAll(async () => {
    const db = svc().db;
    await ensureLab(db, 1, 'quest');
    await ensureLab(db, 3, 'bioreference');
    questTests = Object.values(await insertLabTests(db, 1));
    await insertLabTests(db, 3, ['walk_in_test', 'on_site_collection']);
    ({ teamId, account: questAccount } = await setUpTeam());
    written = await seedDemoOrders(db, teamId, seededRandom(11), { now: NOW });
    rows = await db.select().from(orders).where(eq(orders.teamId, teamId)).orderBy(asc(orders.createdAt));
    const evs = await db
      .select()
      .from(orderEvents)
      .where(
        inArray(
          orderEvents.orderId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(orderEvents.id));
    events = new Map();
    for (const e of evs) events.set(e.orderId, [...(events.get(e.orderId) ?? []), e]);
  });

  it('writes about fifty orders across every collection method, under active accounts only', () => {
    expect(written).toBe(rows.length);
    // About forty of the last six weeks, and three regulars' three past visits each.
    expect(rows.length).toBeGreaterThanOrEqual(47);
    expect(rows.length).toBeLessThanOrEqual(59);
    expect(new Set(rows.map((r) => r.collectionMethod))).toEqual(new Set(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']));
    expect(rows.every((r) => r.labAccountId === questAccount && questTests.includes(r.labTestId))).toBe(true);
    expect(new Set(rows.map((r) => r.userId)).size).toBeGreaterThanOrEqual(8);
    // A user is one patient: the same name, birth date and home on each of their orders; some have several.
    const byUser = new Map<string, Set<string>>();
    for (const r of rows) {
      const who = JSON.stringify([r.patientDetails.first_name, r.patientDetails.last_name, r.patientDetails.dob, r.patientAddress.first_line, r.patientAddress.zip]);
      byUser.set(r.userId, (byUser.get(r.userId) ?? new Set()).add(who));
    }
    expect([...byUser.values()].every((s) => s.size === 1)).toBe(true);
    expect(byUser.size).toBeLessThan(rows.length);
  });

  it('gives a few regulars a history: completed orders months apart', () => {
    const completedAt = new Map<string, number[]>();
    for (const r of rows) if (r.status === 'completed') completedAt.set(r.userId, [...(completedAt.get(r.userId) ?? []), r.updatedAt.getTime()]);
    const withHistory = [...completedAt.values()].filter((times) => times.length >= 3 && Math.max(...times) - Math.min(...times) > 180 * 86_400_000);
    expect(withHistory.length).toBeGreaterThanOrEqual(3);
  });

  it('includes parcels stuck in transit both ways, failures, waiting and completed orders', () => {
    const count = (top: string, low?: string) => rows.filter((r) => r.status === top && (low === undefined || r.lowLevelStatus === low)).length;
    expect(count('collecting_sample', 'problem_in_transit_customer')).toBeGreaterThanOrEqual(3);
    expect(count('collecting_sample', 'problem_in_transit_lab')).toBeGreaterThanOrEqual(3);
    expect(count('failed')).toBeGreaterThanOrEqual(2);
    expect(count('completed')).toBeGreaterThanOrEqual(8);
    expect(count('collecting_sample', 'appointment_pending')).toBeGreaterThanOrEqual(2);
    expect(count('cancelled')).toBeGreaterThanOrEqual(1);
    for (const r of rows.filter((r) => r.status === 'completed')) expect(['normal', 'abnormal', 'critical']).toContain(r.interpretation);
    for (const r of rows.filter((r) => r.status !== 'completed')) expect(r.interpretation).toBeNull();
  });

  it('gives each order a plausible history over the last weeks, ending in its status', () => {
    for (const r of rows) {
      const history = events.get(r.id)!;
      const m = r.collectionMethod;
      expect(history[0]!.status).toBe(`received.${m}.ordered`);
      expect(history[history.length - 1]!.status).toBe(`${r.status}.${m}.${r.lowLevelStatus}`);
      const lows = history.map((e) => e.status.split('.')[2]!);
      for (let i = 0; i + 1 < lows.length; i++) {
        const ok = lows[i + 1] === 'cancelled' || LIFECYCLE[m]![lows[i]!]!.next.some((e) => e.to.low === lows[i + 1]);
        expect(ok, `${m}: ${lows[i]} -> ${lows[i + 1]}`).toBe(true);
      }
      const times = history.map((e) => e.createdAt.getTime());
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      // The last six weeks, except the regulars' past visits (completed, within the year).
      const past = times[0]! < NOW.getTime() - 43 * DAY;
      if (past) expect(r.status).toBe('completed');
      expect(times[0]).toBeGreaterThanOrEqual(NOW.getTime() - (past ? 366 : 43) * DAY);
      expect(times[times.length - 1]).toBeLessThan(NOW.getTime());
      expect(r.createdAt.getTime()).toBe(times[0]);
      expect(r.updatedAt.getTime()).toBe(times[times.length - 1]);
    }
    // Testkits on their way have a shipment with tracking numbers, and a note when in trouble.
    const stuck = rows.filter((r) => r.lowLevelStatus === 'problem_in_transit_lab');
    for (const r of stuck) expect(r.shipment).toMatchObject({ outbound_tracking_number: expect.any(String), inbound_tracking_number: expect.any(String), notes: expect.any(String) });
  });

  it('patients, addresses and notes are valid wire data, and every order presents as a ClientFacingOrder', async () => {
    for (const r of rows) {
      expect(() => PatientDetails.parse(r.patientDetails), JSON.stringify(r.patientDetails)).not.toThrow();
      expect(() => PatientAddress.parse(r.patientAddress), JSON.stringify(r.patientAddress)).not.toThrow();
      expect(String(r.patientDetails.email)).toMatch(/@example\.com$/);
      expect(String(r.patientDetails.phone_number)).toMatch(/ 555 01\d\d$/);
    }
    expect(rows.filter((r) => r.patientAddress.access_notes).length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((r) => r.clinicalNotes).length).toBeGreaterThanOrEqual(3);
    const presented = await presentOrders(svc().db, rows);
    for (const o of presented) expect(() => Order.parse(o)).not.toThrow();
  });

  it('gives at-home orders the appointment they would have had: completed at the draw, or a request still waiting for a time', async () => {
    const db = svc().db;
    const home = rows.filter((r) => r.collectionMethod === 'at_home_phlebotomy');
    const seeded = await db.select().from(appointments).where(inArray(appointments.orderId, home.map((r) => r.id)));
    expect(seeded.length).toBeGreaterThan(0);
    for (const a of seeded) {
      const order = home.find((r) => r.id === a.orderId)!;
      const lows = events.get(order.id)!.map((e) => e.status.split('.')[2]!);
      const presented = await presentAppointment(db, a);
      expect(() => Appointment.parse(presented)).not.toThrow();
      expect(presented.address.zip_code).toBe(order.patientAddress.zip);
      expect(presented.address.access_notes).toBe(order.patientAddress.access_notes ?? null);
      if (order.lowLevelStatus === 'appointment_pending') {
        expect([a.status, a.startAt, a.endAt]).toEqual(['pending', null, null]);
      } else {
        expect(lows).toContain('draw_completed');
        expect(a.status).toBe('completed');
        const drawnAt = events.get(order.id)!.find((e) => e.status.endsWith('.draw_completed'))!.createdAt.getTime();
        // The draw: a half-hour slot that started before the sample was logged, in working hours where the patient lives.
        expect(a.startAt!.getTime() % (30 * 60_000)).toBe(0);
        expect(a.startAt!.getTime()).toBeLessThan(drawnAt);
        expect(drawnAt - a.startAt!.getTime()).toBeLessThanOrEqual(2 * 86_400_000);
        const localHour = Number(new Intl.DateTimeFormat('en-US', { timeZone: a.ianaTimezone!, hour: 'numeric', hourCycle: 'h23' }).format(a.startAt!));
        expect(localHour).toBeGreaterThanOrEqual(7);
        expect(localHour).toBeLessThan(17);
      }
    }
    expect(seeded.filter((a) => a.status === 'pending').length + seeded.filter((a) => a.status === 'completed').length).toBe(seeded.length);
  });

  it('writes no webhooks and no jobs: seeded orders are a snapshot', async () => {
    const db = svc().db;
    expect(await db.select().from(webhookOutbox).where(eq(webhookOutbox.teamId, teamId))).toEqual([]);
    expect(await db.select().from(jobs)).toEqual([]);
  });

  it('does nothing for a team that has orders already', async () => {
    expect(await seedDemoOrders(svc().db, teamId, seededRandom(12), { now: NOW })).toBe(0);
    expect(await svc().db.select().from(orders).where(eq(orders.teamId, teamId))).toHaveLength(rows.length);
  });

  it('does nothing without an active account, a matching catalogue or users', async () => {
    const db = svc().db;
    const noActive = await svc().createTeam();
    await insertUser(db, noActive.teamId);
    await insertLabAccount(db, noActive.teamId, 'quest', 'pending');
    expect(await seedDemoOrders(db, noActive.teamId, seededRandom(1), { now: NOW })).toBe(0);

    const noCatalogue = await svc().createTeam();
    await insertUser(db, noCatalogue.teamId);
    await insertLabAccount(db, noCatalogue.teamId, 'labcorp', 'active');
    expect(await seedDemoOrders(db, noCatalogue.teamId, seededRandom(1), { now: NOW })).toBe(0);

    const noUsers = await svc().createTeam();
    await insertLabAccount(db, noUsers.teamId, 'quest', 'active');
    expect(await seedDemoOrders(db, noUsers.teamId, seededRandom(1), { now: NOW })).toBe(0);
    expect(await seedDemoOrders(db, '0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c', seededRandom(1), { now: NOW })).toBe(0);
  });

  it('is deterministic for a seed and `now`', async () => {
    const again = await setUpTeam();
    await seedDemoOrders(svc().db, again.teamId, seededRandom(11), { now: NOW });
    const other = await svc().db.select().from(orders).where(eq(orders.teamId, again.teamId)).orderBy(asc(orders.createdAt));
    const shape = (r: Row) => [r.collectionMethod, r.status, r.lowLevelStatus, r.createdAt.toISOString(), r.patientDetails.last_name, r.clinicalNotes];
    expect(other.map(shape)).toEqual(rows.map(shape));
  });
});

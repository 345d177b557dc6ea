/**
 * The hot reads (the users list and a user, the orders list, a grouped timeseries page) read their
 * rows through the driver with timestamps formatted by PostgreSQL (server/store/rawRows.ts), where
 * they used to parse each timestamp into a `Date` through drizzle and write it with toISOString.
 * The instants below are the ones where the two could part: microseconds (truncated, never
 * rounded, even .9995 and .999999), fractions of one to six digits, and the instants around
 * daylight-saving changes in Europe and the US (the users' fallback zone is Europe/Berlin). Each answer must show exactly what the old
 * way gives for the same rows: drizzle's `Date`, written with toISOString; and the grouped page's
 * values (read from PostgreSQL's JSON now) the doubles drizzle read.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSources, mindfulnessMinutes, orderEvents, orders, users } from '../../server/service/db/schema';
import { flatten, groupedUrl, storeKinds, useService, type Team } from './harness';
import { createBody, insertCatalogue, insertLabAccount } from './orderFixtures';

const INSTANTS = [
  '2026-03-29 00:59:59.999999+00', // the last microsecond before Europe's spring change
  '2026-03-29 01:00:00.000001+00', // just after it
  '2026-10-25 00:59:59.9995+00', // Europe's autumn change, a half millisecond before
  '2026-03-08 06:59:59.5705+00', // the US spring change, four digits of fraction
  '2026-11-01 05:30:00.123456+00', // in the US autumn's repeated hour
  '2026-06-30 23:59:59.57+00', // two digits of fraction
  '2026-01-01 00:00:00+00', // no fraction at all
];
/** Doubles whose text PostgreSQL and JavaScript write differently (1e-07 / 1e-7, 1e+21): the page's values. */
const VALUES = [0.1 + 0.2, 1e-7, 1e21, 123456789012345.6, 5e-324, 12.5, 1 / 3];

describe.each(storeKinds)('raw reads write timestamps as drizzle and toISOString did (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let userId: string;
  const api = () => svc().api(team.apiKey);
  const get = async (path: string) => {
    const r = await api().get(path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    team = await svc().createTeam('Raw reads team');
    userId = await svc().createUser(team, { client_user_id: 'raw-reads', fallback_time_zone: 'Europe/Berlin', fallback_birth_date: '1980-02-29' });
    const db = svc().db;
    await db.execute(sql`UPDATE ${users} SET created_on = ${INSTANTS[0]}::timestamptz, fallback_time_zone_updated_at = ${INSTANTS[3]}::timestamptz,
      fallback_birth_date_updated_at = ${INSTANTS[4]}::timestamptz WHERE id = ${userId}`);
    await svc().connectSources(userId, [{ slug: 'oura' }, { slug: 'fitbit' }]);
    await db.execute(sql`UPDATE ${connectedSources} SET created_on = CASE provider_slug WHEN 'oura' THEN ${INSTANTS[1]}::timestamptz
      ELSE ${INSTANTS[5]}::timestamptz END WHERE user_id = ${userId}`);

    const ids = await svc().insertPoints(userId, INSTANTS.map((_, i) => ({ provider: i % 2 ? 'oura' : 'fitbit', start: '2026-05-01T00:00:00Z', offset: i % 3 ? 3600 : null })));
    for (const [i, id] of ids.entries()) {
      const end = INSTANTS[(i + 1) % INSTANTS.length];
      await db.execute(sql`UPDATE ${mindfulnessMinutes} SET start_at = ${INSTANTS[i]}::timestamptz,
        end_at = greatest(${end}::timestamptz, ${INSTANTS[i]}::timestamptz + interval '1.000001 second'), value = ${VALUES[i]} WHERE id = ${id}`);
    }

    const cat = await insertCatalogue(db);
    await insertLabAccount(db, team.teamId, { lab: 'quest' });
    for (const instant of INSTANTS.slice(0, 3)) {
      const r = await api().post('/v3/order/create', createBody(userId, cat.questPanel));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      await db.execute(sql`UPDATE ${orders} SET created_at = ${instant}::timestamptz, updated_at = ${INSTANTS[6]}::timestamptz WHERE id = ${r.body.order.id}`);
      await db.execute(sql`UPDATE ${orderEvents} SET created_at = ${INSTANTS[4]}::timestamptz WHERE order_id = ${r.body.order.id}`);
    }
  });

  it('the users list and a user', async () => {
    const [row] = await svc().db.select().from(users).where(eq(users.id, userId));
    const sources = await svc().db.select().from(connectedSources).where(eq(connectedSources.userId, userId)).orderBy(asc(connectedSources.createdOn));
    const expected = {
      created_on: row!.createdOn.toISOString(),
      fallback_time_zone: { id: 'Europe/Berlin', source_slug: 'manual', updated_at: row!.fallbackTimeZoneUpdatedAt!.toISOString() },
      fallback_birth_date: { value: '1980-02-29', source_slug: 'manual', updated_at: row!.fallbackBirthDateUpdatedAt!.toISOString() },
      connected_sources: sources.map((s) => expect.objectContaining({ created_on: s.createdOn.toISOString() })),
    };
    const list = await get('/v2/user/?limit=10');
    expect(list.users).toEqual([expect.objectContaining(expected)]);
    expect(await get(`/v2/user/${userId}`)).toEqual(expect.objectContaining(expected));
    expect(await get('/v2/user/resolve/raw-reads')).toEqual(await get(`/v2/user/${userId}`));
    // The instants themselves, truncated: the old way's figures, written out.
    expect(list.users[0].created_on).toBe('2026-03-29T00:59:59.999Z');
    expect(list.users[0].fallback_time_zone.updated_at).toBe('2026-03-08T06:59:59.570Z');
  });

  it('a grouped timeseries page', async () => {
    const rows = await svc().db.select().from(mindfulnessMinutes).where(eq(mindfulnessMinutes.userId, userId));
    const page = await get(groupedUrl(userId, { start_date: '2025-12-01', end_date: '2026-12-31' }));
    const points = flatten(page);
    expect(points).toHaveLength(INSTANTS.length);
    for (const p of points) {
      const row = rows.find((r) => r.id === p.id)!;
      expect([p.start, p.end, p.value]).toEqual([row.startAt.toISOString(), row.endAt.toISOString(), row.value]);
    }
    expect(points.map((p) => p.value).sort()).toEqual([...VALUES].sort());
    expect(points.map((p) => p.start)).toContain('2026-10-25T00:59:59.999Z');
  });

  it('the orders list, as the order read gives each order', async () => {
    const rows = await svc().db.select().from(orders).where(eq(orders.teamId, team.teamId));
    const events = await svc().db.select().from(orderEvents).where(eq(orderEvents.orderId, rows[0]!.id));
    const list = await get('/v3/orders?page=1&size=10');
    expect(list.orders).toHaveLength(3);
    for (const order of list.orders) {
      const row = rows.find((r) => r.id === order.id)!;
      expect([order.created_at, order.updated_at]).toEqual([row.createdAt.toISOString(), row.updatedAt.toISOString()]);
      expect(order).toEqual(await get(`/v3/order/${order.id}`));
    }
    const listed = list.orders.find((o: { id: string }) => o.id === rows[0]!.id);
    expect(listed.events.map((e: { created_at: string }) => e.created_at)).toEqual(events.map((e) => e.createdAt.toISOString()));
  });
});

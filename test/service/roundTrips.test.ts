/**
 * A read asks the store once for its data. An order list or an order read: the page, its events
 * and the count come in one query, and the catalogue rows every order embeds (lab test, lab,
 * markers) are remembered until a catalogue sync announces a change. A grouped timeseries read: the
 * user (its fallback time zone and ingestion bounds) with its page of sessions joined laterally.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { labTests } from '../../server/service/db/schema';
import { announceCatalogueChange } from '../../server/service/domain/labs/catalogueCache';
import { storeKinds, useService } from './harness';
import { createBody, insertCatalogue, insertLabAccount, teamWithUser, type Catalogue, type OrderTeam } from './orderFixtures';

type Queryable = { query: (...args: unknown[]) => unknown };

describe.each(storeKinds)('order reads ask the store once (%s)', (kind) => {
  const svc = useService(kind);
  let cat: Catalogue;
  let team: OrderTeam;
  const placed: string[] = [];
  let restore: (() => void) | undefined;

  /** Counts the statements the app's store client is sent while `fn` runs. */
  const statementsDuring = async <T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> => {
    const client = (svc().db as unknown as { $client: Queryable }).$client;
    const original = client.query;
    let statements = 0;
    client.query = function (this: unknown, ...args: unknown[]) {
      statements++;
      return original.apply(this, args);
    };
    restore = () => (client.query = original);
    try {
      return { result: await fn(), statements };
    } finally {
      restore();
      restore = undefined;
    }
  };
  afterEach(() => restore?.());

  const get = async (path: string) => {
    const r = await svc().api(team.team.apiKey).get(path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    cat = await insertCatalogue(svc().db);
    team = await teamWithUser(svc(), `pt-roundtrips-${kind}`);
    await insertLabAccount(svc().db, team.team.teamId, { lab: 'quest' });
    await insertLabAccount(svc().db, team.team.teamId, { lab: 'labcorp' });
    for (const test of [cat.questPanel, cat.questKit, cat.labcorpPanel]) {
      const r = await svc().api(team.team.apiKey).post('/v3/order/create', createBody(team.userId, test));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      placed.push(r.body.order.id);
    }
    // The first read fills the caches (the API key's team, the catalogue rows).
    await get('/v3/orders?page=1&size=2');
  });

  it('lists a page with its events, lab tests and count in one query', async () => {
    const { result, statements } = await statementsDuring(() => get('/v3/orders?page=1&size=2'));
    expect(statements).toBe(1);
    expect(result.total).toBe(3);
    expect(result.orders).toHaveLength(2);
    for (const order of result.orders) {
      expect(order.events.length).toBeGreaterThan(0);
      expect(order.last_event).toEqual(order.events.at(-1));
      expect(order.lab_test.markers.length).toBeGreaterThan(0);
      expect(order.lab_test.lab).not.toBeNull();
    }
  });

  it('reads one order in one query, and the same order as the list gives it', async () => {
    const listed = (await get(`/v3/orders?page=1&size=50`)).orders.find((o: { id: string }) => o.id === placed[2]);
    const { result, statements } = await statementsDuring(() => get(`/v3/order/${placed[2]}`));
    expect(statements).toBe(1);
    expect(result).toEqual(listed);
  });

  it('counts the orders again for a page past the end', async () => {
    const { result, statements } = await statementsDuring(() => get('/v3/orders?page=3&size=2'));
    expect(result).toMatchObject({ orders: [], total: 3, page: 3, size: 2 });
    expect(statements).toBe(2);
  });

  it('reads a grouped timeseries page in one query, and an unknown user is still a 404 before a bad query', async () => {
    const day = Date.parse('2026-03-02T08:00:00Z');
    const points = Array.from({ length: 3 }, (_, i) => ({
      user_id: team.userId,
      provider: 'oura',
      start: new Date(day + i * 3_600_000).toISOString(),
      end: new Date(day + i * 3_600_000 + 600_000).toISOString(),
      value: 10,
    }));
    const imported = await svc().api(team.team.apiKey).post('/v2/timeseries/mindfulness_minutes/import', { points });
    expect(imported.status, JSON.stringify(imported.body)).toBeLessThan(300);
    const path = `/v2/timeseries/${team.userId}/mindfulness_minutes/grouped?start_date=2026-03-01&end_date=2026-03-03`;
    const { result, statements } = await statementsDuring(() => get(path));
    expect(statements).toBe(1);
    expect(result.groups.oura[0].data).toHaveLength(3);
    const empty = await statementsDuring(() => get(path.replace('2026-03-01', '2026-02-01').replace('2026-03-03', '2026-02-02')));
    expect(empty.result.groups).toEqual({});
    expect(empty.statements).toBe(1);
    const unknown = await svc().api(team.team.apiKey).get(`/v2/timeseries/00000000-0000-4000-8000-000000000000/mindfulness_minutes/grouped?start_date=2026-13-45`);
    expect(unknown.status).toBe(404);
    const badDate = await svc().api(team.team.apiKey).get(`/v2/timeseries/${team.userId}/mindfulness_minutes/grouped?start_date=2026-13-45`);
    expect(badDate.status).toBe(422);
  });

  it('shows a catalogue change once it is announced, without a restart', async () => {
    const before = await get(`/v3/order/${placed[0]}`);
    expect(before.lab_test.name).not.toBe('Renamed by a sync');
    // Another process's catalogue sync: the rows change, and the change is announced at commit.
    await svc().db.transaction(async (tx) => {
      await tx.update(labTests).set({ name: 'Renamed by a sync' }).where(eq(labTests.id, cat.questPanel));
      await announceCatalogueChange(tx);
    });
    await vi.waitFor(async () => expect((await get(`/v3/order/${placed[0]}`)).lab_test.name).toBe('Renamed by a sync'), { timeout: 30_000, interval: 50 });
  });
});

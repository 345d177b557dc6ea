import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { TIMESERIES_PAGE_SIZE } from '../../server/contract';
import { expect422, flatten, groupedUrl, storeKinds, useService, type FlatPoint, type PointInput, type Team } from './harness';

const HOUR = 3_600_000;

/** `count` sessions an hour apart from `from`, alternating providers; `value` numbers them 1..count. */
function hourly(from: string, count: number, firstValue = 1): PointInput[] {
  const t0 = Date.parse(from);
  return Array.from({ length: count }, (_, i) => ({
    provider: i % 3 === 0 ? 'fitbit' : 'oura',
    start: new Date(t0 + i * HOUR),
    minutes: firstValue + i,
    offset: i % 3 === 0 ? null : 0,
  }));
}

/** Flips one character of a string at `index`, to another character of the base64url alphabet. */
function flip(s: string, index: number): string {
  const c = s[index]!;
  return s.slice(0, index) + (c === 'A' ? 'B' : 'A') + s.slice(index + 1);
}

describe.each(storeKinds)('timeseries pages and cursors (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  const api = () => svc().api(team.apiKey);

  let heavy: string; // 450 sessions: three pages
  let exact: string; // exactly one page
  let justOver: string; // one page and one point
  let tied: string; // many sessions at the same instant, across a page boundary
  let otherUser: string;

  interface Page {
    points: FlatPoint[];
    next: string | null;
  }

  async function page(userId: string, query: Record<string, string | undefined>, app?: FastifyInstance): Promise<Page> {
    const r = await svc().inject({ method: 'GET', url: groupedUrl(userId, query), key: team.apiKey }, app);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.next).toBe(r.body.next_cursor);
    return { points: flatten(r.body), next: r.body.next_cursor };
  }

  /** Walks every page; `between` runs after each page but the last. */
  async function walk(
    userId: string,
    query: Record<string, string | undefined>,
    opts: { param?: 'next_cursor' | 'cursor'; between?: (pageIndex: number, last: FlatPoint) => Promise<void> } = {},
  ): Promise<Page[]> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const p = await page(userId, { ...query, ...(cursor ? { [opts.param ?? 'next_cursor']: cursor } : {}) });
      pages.push(p);
      if (!p.next) return pages;
      await opts.between?.(i, p.points[p.points.length - 1]!);
      cursor = p.next;
    }
    throw new Error('more than 20 pages');
  }

  const values = (pages: Page[]) => pages.flatMap((p) => p.points.map((x) => x.value));
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  /** Each page is in (start) order and starts no earlier than the previous one ended. */
  function expectOrdered(pages: Page[]) {
    let previous = '';
    for (const p of pages) {
      for (const x of p.points) {
        expect(x.start >= previous).toBe(true);
        previous = x.start;
      }
    }
  }

  beforeAll(async () => {
    team = await svc().createTeam('Cursor team');
    heavy = await svc().createUser(team, { client_user_id: 'cur-heavy', fallback_time_zone: 'America/Chicago' });
    await svc().insertPoints(heavy, hourly('2026-01-01T00:00:00Z', 450));
    exact = await svc().createUser(team, { client_user_id: 'cur-exact' });
    await svc().insertPoints(exact, hourly('2026-01-01T00:00:00Z', TIMESERIES_PAGE_SIZE));
    justOver = await svc().createUser(team, { client_user_id: 'cur-over' });
    await svc().insertPoints(justOver, hourly('2026-01-01T00:00:00Z', TIMESERIES_PAGE_SIZE + 1));
    tied = await svc().createUser(team, { client_user_id: 'cur-tied' });
    // 190 distinct instants, then 30 sessions at one instant (values 191..220), then 10 more.
    const t = hourly('2026-01-01T00:00:00Z', 190);
    const same = new Date('2026-03-01T12:00:00Z');
    for (let i = 0; i < 30; i++) t.push({ provider: i % 2 ? 'oura' : 'fitbit', start: same, minutes: 191 + i, offset: 0 });
    t.push(...hourly('2026-03-02T00:00:00Z', 10, 221));
    await svc().insertPoints(tied, t);
    otherUser = await svc().createUser(team, { client_user_id: 'cur-other' });
    await svc().insertPoints(otherUser, hourly('2026-01-01T00:00:00Z', 250));
  });

  describe('pages', () => {
    it(`holds at most ${TIMESERIES_PAGE_SIZE} points; walking returns every point exactly once, in order`, async () => {
      const pages = await walk(heavy, { start_date: '2025-12-01' });
      expect(pages.map((p) => p.points.length)).toEqual([TIMESERIES_PAGE_SIZE, TIMESERIES_PAGE_SIZE, 50]);
      expect(values(pages)).toEqual(range(1, 450));
      expectOrdered(pages);
      expect(pages[2]!.next).toBeNull();
    });

    it('exactly one page of points answers no cursor; one more point makes a second page', async () => {
      const one = await walk(exact, { start_date: '2025-12-01' });
      expect(one).toHaveLength(1);
      expect(one[0]!.points).toHaveLength(TIMESERIES_PAGE_SIZE);
      expect(one[0]!.next).toBeNull();
      const two = await walk(justOver, { start_date: '2025-12-01' });
      expect(two.map((p) => p.points.length)).toEqual([TIMESERIES_PAGE_SIZE, 1]);
      expect(values(two)).toEqual(range(1, TIMESERIES_PAGE_SIZE + 1));
    });

    it('splits sessions that share an instant across pages without losing or repeating one', async () => {
      const pages = await walk(tied, { start_date: '2025-12-01' });
      expect(pages.map((p) => p.points.length)).toEqual([TIMESERIES_PAGE_SIZE, 30]);
      expect([...values(pages)].sort((a, b) => a - b)).toEqual(range(1, 230));
      expectOrdered(pages);
    });

    it('keeps the query on every page: bounds and provider filter', async () => {
      const query = { start_date: '2026-01-02', end_date: '2026-01-19', provider: 'oura' };
      const pages = await walk(heavy, query);
      const got = values(pages);
      // The oura sessions carry offset 0, so their local days are UTC days.
      const expected = hourly('2026-01-01T00:00:00Z', 450)
        .filter((p) => p.provider === 'oura')
        .filter((p) => {
          const s = (p.start as Date).toISOString();
          return s >= '2026-01-02T00:00:00.000Z' && s <= '2026-01-19T23:59:59.999Z';
        })
        .map((p) => p.minutes);
      expect(expected.length).toBeGreaterThan(TIMESERIES_PAGE_SIZE);
      expect(got).toEqual(expected);
      expect(pages.every((p) => p.points.every((x) => x.provider === 'oura'))).toBe(true);
    });

    it('never overlaps or skips while sessions arrive between page fetches', async () => {
      const live = await svc().createUser(team, { client_user_id: 'cur-live' });
      await svc().insertPoints(live, hourly('2026-01-01T00:00:00Z', 450));
      const pages = await walk(
        live,
        { start_date: '2025-12-01' },
        {
          between: async (pageIndex, last) => {
            const lastAt = Date.parse(last.start);
            await svc().insertPoints(live, [
              // Before the cursor position: already served territory, not part of the rest of the walk.
              { provider: 'oura', start: new Date(lastAt - 10.5 * HOUR), minutes: 1000 + pageIndex * 10 + 1, offset: 0 },
              // At the very instant of the page's last point: after it in (start, id) order.
              { provider: 'fitbit', start: new Date(lastAt), minutes: 1000 + pageIndex * 10 + 2, offset: null },
              // Further on, between points not yet served, and after everything.
              { provider: 'oura', start: new Date(lastAt + 30.5 * HOUR), minutes: 1000 + pageIndex * 10 + 3, offset: 0 },
              { provider: 'fitbit', start: new Date('2026-12-31T00:00:00Z'), minutes: 1000 + pageIndex * 10 + 4, offset: null },
            ]);
          },
        },
      );
      const got = values(pages);
      expect(new Set(got).size).toBe(got.length); // no point twice
      for (const v of range(1, 450)) expect(got).toContain(v); // no original point skipped
      for (const pageIndex of [0, 1]) {
        expect(got).not.toContain(1000 + pageIndex * 10 + 1);
        expect(got).toContain(1000 + pageIndex * 10 + 2);
        expect(got).toContain(1000 + pageIndex * 10 + 3);
        expect(got).toContain(1000 + pageIndex * 10 + 4);
      }
      expectOrdered(pages);
      // A fresh walk sees everything, the early arrivals included.
      const fresh = values(await walk(live, { start_date: '2025-12-01' }));
      expect(fresh).toHaveLength(450 + pages.slice(0, -1).length * 4);
      expect(new Set(fresh).size).toBe(fresh.length);
    });
  });

  describe('cursors', () => {
    it('next equals next_cursor; the deprecated cursor parameter walks the same pages', async () => {
      const a = await walk(heavy, { start_date: '2025-12-01' }, { param: 'next_cursor' });
      const b = await walk(heavy, { start_date: '2025-12-01' }, { param: 'cursor' });
      expect(values(b)).toEqual(values(a));
      expect(b.map((p) => p.next)).toEqual(a.map((p) => p.next));
    });

    it('accepts both parameters when they agree; refuses them when they differ (422)', async () => {
      const first = await page(heavy, { start_date: '2025-12-01' });
      const second = await page(heavy, { start_date: '2025-12-01', next_cursor: first.next! });
      const both = await page(heavy, { start_date: '2025-12-01', next_cursor: first.next!, cursor: first.next! });
      expect(both.points.map((x) => x.value)).toEqual(second.points.map((x) => x.value));
      const r = await api().get(groupedUrl(heavy, { start_date: '2025-12-01', next_cursor: first.next!, cursor: second.next! }));
      expect422(r, ['query', 'cursor']);
    });

    it('refuses a tampered cursor: one character of the payload or of the signature (422)', async () => {
      const { next } = await page(heavy, { start_date: '2025-12-01' });
      const cursor = next!;
      const dot = cursor.indexOf('.');
      expect(dot).toBeGreaterThan(0);
      const tampered = [flip(cursor, 0), flip(cursor, Math.floor(dot / 2)), flip(cursor, dot - 1), flip(cursor, dot + 1), flip(cursor, cursor.length - 2), cursor.slice(0, -1), `${cursor}A`];
      for (const t of tampered) {
        expect(t).not.toBe(cursor);
        expect422(await api().get(groupedUrl(heavy, { start_date: '2025-12-01', next_cursor: t })), ['query', 'next_cursor']);
        expect422(await api().get(groupedUrl(heavy, { start_date: '2025-12-01', cursor: t })), ['query', 'cursor']);
      }
      // A payload of our own, even well-formed, is refused without the service's signature.
      const payload = JSON.parse(Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8')) as Record<string, unknown>;
      const forgedBody = Buffer.from(JSON.stringify({ ...payload, i: 0 })).toString('base64url');
      const forged = `${forgedBody}.${createHmac('sha256', 'guessed-secret').update(forgedBody).digest('base64url')}`;
      expect422(await api().get(groupedUrl(heavy, { start_date: '2025-12-01', next_cursor: forged })), ['query', 'next_cursor']);
      const resigned = `${forgedBody}.${cursor.slice(dot + 1)}`;
      expect422(await api().get(groupedUrl(heavy, { start_date: '2025-12-01', next_cursor: resigned })), ['query', 'next_cursor']);
    });

    it('refuses garbage cursors (422)', async () => {
      for (const g of ['abc', 'a.b', 'a.b.c', '.', '..', '....', '%', 'null', '{}', '🧘.🧘', 'x'.repeat(2049), Buffer.from('{"v":1}').toString('base64url')]) {
        expect422(await api().get(groupedUrl(heavy, { start_date: '2025-12-01', next_cursor: g })), ['query', 'next_cursor']);
      }
    });

    it('refuses a cursor of another user, or of another query (start_date, end_date, provider)', async () => {
      const mine = await page(heavy, { start_date: '2025-12-01' });
      const theirs = await page(otherUser, { start_date: '2025-12-01' });
      expect(theirs.next).not.toBeNull();
      expect422(await api().get(groupedUrl(heavy, { start_date: '2025-12-01', next_cursor: theirs.next! })), ['query', 'next_cursor']);
      expect422(await api().get(groupedUrl(otherUser, { start_date: '2025-12-01', next_cursor: mine.next! })), ['query', 'next_cursor']);
      for (const other of [
        { start_date: '2025-12-02' },
        { start_date: '2025-12-01T00:00:00Z' },
        { start_date: '2025-12-01', end_date: '2026-12-31' },
        { start_date: '2025-12-01', provider: 'oura' },
      ]) {
        expect422(await api().get(groupedUrl(heavy, { ...other, next_cursor: mine.next! })), ['query', 'next_cursor']);
      }
      // The right query still takes it.
      expect((await api().get(groupedUrl(heavy, { start_date: '2025-12-01', next_cursor: mine.next! }))).status).toBe(200);
    });

    it('walks the same pages when the client writes the user id in upper case', async () => {
      const lower = values(await walk(heavy, { start_date: '2025-12-01' }));
      const upper = await walk(heavy.toUpperCase(), { start_date: '2025-12-01' });
      expect(upper).toHaveLength(3);
      expect(values(upper)).toEqual(lower);
      // A cursor from the lower-case spelling works with the upper-case one, and back.
      const first = await page(heavy, { start_date: '2025-12-01' });
      const second = await page(heavy.toUpperCase(), { start_date: '2025-12-01', next_cursor: first.next! });
      expect(second.points.map((x) => x.value)).toEqual(range(201, 400));
      expect((await page(heavy, { start_date: '2025-12-01', next_cursor: second.next! })).points.map((x) => x.value)).toEqual(range(401, 450));
    });

    it('a cursor signed before a restart still works on a new app over the same store, and back', async () => {
      const first = await page(heavy, { start_date: '2025-12-01' });
      const second = await page(heavy, { start_date: '2025-12-01', next_cursor: first.next! });
      const restarted = await svc().buildApp();
      const again = await page(heavy, { start_date: '2025-12-01', next_cursor: first.next! }, restarted);
      expect(again.points).toEqual(second.points);
      expect(again.next).toBe(second.next);
      const third = await page(heavy, { start_date: '2025-12-01', next_cursor: again.next! });
      expect(third.points.map((x) => x.value)).toEqual(range(401, 450));
    });
  });
});

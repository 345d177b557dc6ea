import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CreateOrderBody } from '../../server/contract';
import { idempotencyKeys, orders } from '../../server/service/db/schema';
import { canonicalJson, ORDER_CREATE_OPERATION, requestDigest } from '../../server/service/domain/orders/idempotency';
import { expect422, expectDetail, storeKinds, UNKNOWN_UUID, useService } from './harness';
import { createBody, insertCatalogue, insertLabAccount, teamWithUser, type Catalogue, type OrderTeam } from './orderFixtures';

describe('canonical request digest', () => {
  it('ignores key order and undefined members, and tells different bodies apart', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe('{"a":{"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(requestDigest({ a: 1, b: 2 })).toBe(requestDigest({ b: 2, a: 1 }));
    expect(requestDigest({ a: 1 })).not.toBe(requestDigest({ a: 2 }));
    expect(requestDigest({ a: [1, 2] })).not.toBe(requestDigest({ a: [2, 1] }));
  });
});

describe.each(storeKinds)('order creation idempotency (%s)', (kind) => {
  const svc = useService(kind);
  let cat: Catalogue;
  let main: OrderTeam;
  let other: OrderTeam;

  beforeAll(async () => {
    cat = await insertCatalogue(svc().db);
    main = await teamWithUser(svc());
    other = await teamWithUser(svc());
    await insertLabAccount(svc().db, main.team.teamId, { lab: 'quest' });
    await insertLabAccount(svc().db, other.team.teamId, { lab: 'quest' });
  });

  const post = (key: string | undefined, body: Record<string, unknown>, t: OrderTeam = main, url = '/v3/order/create') =>
    svc().inject({ method: 'POST', url, key: t.team.apiKey, headers: key === undefined ? {} : { 'x-idempotency-key': key }, payload: body });

  const orderCount = async (t: OrderTeam = main) => (await svc().db.select({ id: orders.id }).from(orders).where(eq(orders.teamId, t.team.teamId))).length;

  it('same key and same body: the first answer again, one order', async () => {
    const body = createBody(main.userId, cat.questPanel, { clinical_notes: 'replay me' });
    const before = await orderCount();
    const first = await post('key-replay-1', body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await post('key-replay-1', body);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    // Key order in the JSON does not matter; nor does the path (both create paths are one operation).
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const third = await post('key-replay-1', reordered, main, '/v3/order');
    expect(third.status).toBe(200);
    expect(third.body.order.id).toBe(first.body.order.id);
    expect(await orderCount()).toBe(before + 1);

    const [row] = await svc()
      .db.select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.teamId, main.team.teamId), eq(idempotencyKeys.key, 'key-replay-1')));
    expect(row!.state).toBe('done');
    expect(row!.operation).toBe(ORDER_CREATE_OPERATION);
    expect(row!.responseStatus).toBe(200);
    expect((row!.responseBody as { order: { id: string } }).order.id).toBe(first.body.order.id);
  });

  it('the same key with a different body is 422 at the header', async () => {
    const body = createBody(main.userId, cat.questPanel);
    expect((await post('key-other-body', body)).status).toBe(200);
    const before = await orderCount();
    const r = await post('key-other-body', { ...body, clinical_notes: 'something else' });
    expect422(r, ['header', 'x-idempotency-key']);
    expect(await orderCount()).toBe(before);
  });

  it('keys are per team', async () => {
    const a = await post('key-shared', createBody(main.userId, cat.questPanel));
    const b = await post('key-shared', createBody(other.userId, cat.questPanel), other);
    expect(a.status).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.order.id).not.toBe(a.body.order.id);
    expect(b.body.order.team_id).toBe(other.team.teamId);
  });

  it('while the first request is in flight: 409 {detail}, and no order', async () => {
    const body = createBody(main.userId, cat.questPanel, { clinical_notes: 'in flight' });
    await svc()
      .db.insert(idempotencyKeys)
      .values({
        teamId: main.team.teamId,
        operation: ORDER_CREATE_OPERATION,
        key: 'key-in-flight',
        requestHash: requestDigest(CreateOrderBody.parse(body)),
        state: 'in_flight',
        createdAt: new Date(Date.now() - 10_000),
      });
    const before = await orderCount();
    expectDetail(await post('key-in-flight', body), 409);
    // With another body the key is still misused: 422.
    expect422(await post('key-in-flight', { ...body, clinical_notes: 'other' }), ['header', 'x-idempotency-key']);
    expect(await orderCount()).toBe(before);
  });

  it('an in-flight claim older than two minutes is abandoned and taken over', async () => {
    const body = createBody(main.userId, cat.questPanel, { clinical_notes: 'abandoned' });
    await svc()
      .db.insert(idempotencyKeys)
      .values({
        teamId: main.team.teamId,
        operation: ORDER_CREATE_OPERATION,
        key: 'key-abandoned',
        requestHash: requestDigest(CreateOrderBody.parse(body)),
        state: 'in_flight',
        createdAt: new Date(Date.now() - 3 * 60_000),
      });
    const r = await post('key-abandoned', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const again = await post('key-abandoned', body);
    expect(again.body.order.id).toBe(r.body.order.id);
  });

  it('a failed request frees its key: a corrected retry with the same key works', async () => {
    const bad = createBody(main.userId, cat.questPanel, { lab_account_id: UNKNOWN_UUID });
    expect422(await post('key-retry', bad), ['body', 'lab_account_id']);
    const badAgain = createBody(UNKNOWN_UUID, cat.questPanel);
    expectDetail(await post('key-retry', badAgain), 404);
    const rows = await svc().db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.teamId, main.team.teamId), eq(idempotencyKeys.key, 'key-retry')));
    expect(rows).toHaveLength(0);
    const good = createBody(main.userId, cat.questPanel);
    const ok = await post('key-retry', good);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await post('key-retry', good)).body.order.id).toBe(ok.body.order.id);
    // A body the schema refuses never claims the key.
    expect422(await post('key-schema', createBody(main.userId, cat.questPanel, { clinical_notes: 'x'.repeat(1001) })), ['body', 'clinical_notes']);
    expect((await post('key-schema', good)).status).toBe(200);
  });

  it('the key: at most 255 characters, not empty', async () => {
    const body = createBody(main.userId, cat.questPanel);
    expect((await post('k'.repeat(255), body)).status).toBe(200);
    expect422(await post('k'.repeat(256), body), ['header', 'x-idempotency-key']);
    expect422(await post('', body), ['header', 'x-idempotency-key']);
  });

  it('ten concurrent identical requests with one key create exactly one order', async () => {
    const body = createBody(main.userId, cat.questPanel, { clinical_notes: 'concurrent' });
    const before = await orderCount();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('key-concurrent', body)));
    const statuses = answers.map((a) => a.status);
    for (const s of statuses) expect([200, 409]).toContain(s);
    const ids = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.order.id));
    expect(ids.size).toBe(1);
    expect(await orderCount()).toBe(before + 1);
    // Afterwards every retry gets the one order.
    const after = await post('key-concurrent', body);
    expect(after.status).toBe(200);
    expect(ids.has(after.body.order.id)).toBe(true);
  });

  it('without a key, each request is a new order', async () => {
    const body = createBody(main.userId, cat.questPanel);
    const a = await post(undefined, body);
    const b = await post(undefined, body);
    expect(a.body.order.id).not.toBe(b.body.order.id);
  });

  it('replays an INCORRECT_LAB replacement without cancelling anything twice', async () => {
    const t = await teamWithUser(svc());
    await insertLabAccount(svc().db, t.team.teamId, { lab: 'quest' });
    await insertLabAccount(svc().db, t.team.teamId, { lab: 'quest' });
    const original = (await post(undefined, createBody(t.userId, cat.questPanel), t)).body.order;
    const body = createBody(t.userId, cat.questPanel, { update_reason: 'INCORRECT_LAB', original_order_id: original.id });
    const first = await post('key-incorrect-lab', body, t);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await post('key-incorrect-lab', body, t);
    expect(again.status).toBe(200);
    expect(again.body.order.id).toBe(first.body.order.id);
    const got = await svc().api(t.team.apiKey).get(`/v3/order/${original.id}`);
    expect(got.body.events.map((e: { status: string }) => e.status)).toEqual(['received.walk_in_test.ordered', 'cancelled.walk_in_test.cancelled']);
  });
});

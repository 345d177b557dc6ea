import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobs, orderEvents } from '../../server/service/db/schema';
import { expect422, storeKinds, useService } from './harness';
import { newOrder, ON_SITE_TEST, pscTeam, WALK_IN_TEST, type PscTeam } from './pscFixtures';
import { sdkClient } from './sdkClient';

describe.each(storeKinds)('on-site draw completed (%s)', (kind) => {
  const svc = useService(kind);
  let t: PscTeam;
  let other: PscTeam;
  const toRequisition = (orderId: string, method: string) =>
    svc().api(t.team.apiKey).post(`/v3/order/${orderId}/test?final_status=received.${method}.requisition_created`, {});

  beforeAll(async () => {
    t = await pscTeam(svc());
    other = await pscTeam(svc());
  });

  it('moves an on-site order from requisition_created to draw_completed once, and the lifecycle resumes', async () => {
    const orderId = await newOrder(svc(), t, ON_SITE_TEST);
    const early = await svc().api(t.team.apiKey).patch(`/v3/order/${orderId}/draw_completed`);
    expect(expect422(early, ['path', 'order_id'])[0]!.msg).toMatch(/requisition/);
    expect((await toRequisition(orderId, 'on_site_collection')).status).toBe(200);

    const client = sdkClient(svc().app, t.team.apiKey);
    const answer = await client.labTests.updateOnSiteCollectionOrderDrawCompleted(orderId);
    expect(answer.order.status).toBe('sample_with_lab');
    expect(answer.order.events.at(-1)?.status).toBe('sample_with_lab.on_site_collection.draw_completed');
    const advance = await svc()
      .db.select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'order.advance')));
    expect(advance.some((j) => (j.payload as { order_id: string; from?: string }).order_id === orderId && (j.payload as { from?: string }).from === 'draw_completed')).toBe(true);

    // Again: the same order, nothing recorded twice.
    const repeat = await client.labTests.updateOnSiteCollectionOrderDrawCompleted(orderId);
    expect(repeat.order.status).toBe('sample_with_lab');
    const drawn = await svc().db.select().from(orderEvents).where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.status, 'sample_with_lab.on_site_collection.draw_completed')));
    expect(drawn).toHaveLength(1);
  });

  it('refuses other collection methods, and another team’s order is 404', async () => {
    const walkIn = await newOrder(svc(), t, WALK_IN_TEST);
    expect((await toRequisition(walkIn, 'walk_in_test')).status).toBe(200);
    const r = await svc().api(t.team.apiKey).patch(`/v3/order/${walkIn}/draw_completed`);
    expect(expect422(r, ['path', 'order_id'])[0]!.msg).toMatch(/on_site_collection/);
    const theirs = await newOrder(svc(), other, ON_SITE_TEST);
    const foreign = await svc().api(t.team.apiKey).patch(`/v3/order/${theirs}/draw_completed`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Order not found');
  });
});

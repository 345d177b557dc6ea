import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import {
  ALL_EVENT_TYPES,
  DELIVERY_ATTEMPTS_SHOWN,
  WEBHOOK_ENDPOINTS_PER_TEAM,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointBody,
  type DeliveriesQuery,
  type PatchWebhookEndpointBody,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '../../contract';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database } from '../../store/db';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, type ServiceSchema } from '../db/schema';
import type { CursorCodec } from '../domain/cursor';
import { Invalid, NotFound, ServiceError } from '../domain/errors';
import { privateTargetProblem } from './addresses';
import { cancelPendingDeliveries } from './deliver';
import { enqueueDelivery, ensureWebhookDispatcher } from './dispatcher';
import { generateSecret } from './signing';

type Db = Database<ServiceSchema>;
type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface EndpointPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: endpoints may point at private, loopback and link-local addresses. */
  allowPrivateUrls: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Absent, null, or a list holding "*": every type. Otherwise the list, without repeats. */
function normaliseEventTypes(list: string[] | null | undefined): string[] {
  if (!list || list.includes(ALL_EVENT_TYPES)) return [ALL_EVENT_TYPES];
  return [...new Set(list)];
}

function present(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    disabled_at: iso(row.disabledAt),
    disabled_reason: row.disabledReason,
  };
}

async function checkTarget(url: string, policy: EndpointPolicy) {
  const problem = await privateTargetProblem(url, { allowPrivate: policy.allowPrivateUrls });
  if (problem) throw new Invalid(['body', 'url'], problem, 'value_error.url.private');
  if (!policy.allowPrivateUrls && new URL(url).protocol !== 'https:') {
    throw new Invalid(
      ['body', 'url'],
      'must be an https:// URL: events carry patient data (plain http:// is allowed only with WEBHOOK_ALLOW_PRIVATE_URLS=true, for local development)',
      'value_error.url.scheme',
    );
  }
}

async function endpointRow(db: Db, teamId: string, endpointId: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.teamId, teamId)));
  if (!row) throw new NotFound('Webhook endpoint');
  return row;
}

export async function createEndpoint(db: Db, teamId: string, body: CreateWebhookEndpointBody, policy: EndpointPolicy): Promise<CreatedWebhookEndpoint> {
  await checkTarget(body.url, policy);
  const [{ n }] = (await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.teamId, teamId))) as [{ n: number }];
  if (Number(n) >= WEBHOOK_ENDPOINTS_PER_TEAM) {
    throw new Invalid(['body'], `a team may have at most ${WEBHOOK_ENDPOINTS_PER_TEAM} webhook endpoints`, 'value_error.limit');
  }
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      teamId,
      url: body.url,
      description: body.description ?? null,
      eventTypes: normaliseEventTypes(body.event_types),
      secret: generateSecret(),
    })
    .returning();
  await ensureWebhookDispatcher(db);
  return { ...present(row!), secret: row!.secret };
}

export async function listEndpoints(db: Db, teamId: string): Promise<WebhookEndpointList> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.teamId, teamId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return { data: rows.map(present) };
}

export async function getEndpoint(db: Db, teamId: string, endpointId: string): Promise<WebhookEndpoint> {
  return present(await endpointRow(db, teamId, endpointId));
}

export async function getEndpointSecret(db: Db, teamId: string, endpointId: string): Promise<{ secret: string }> {
  return { secret: (await endpointRow(db, teamId, endpointId)).secret };
}

export async function patchEndpoint(db: Db, teamId: string, endpointId: string, body: PatchWebhookEndpointBody, policy: EndpointPolicy): Promise<WebhookEndpoint> {
  await endpointRow(db, teamId, endpointId);
  if (body.url !== undefined) await checkTarget(body.url, policy);
  return db.transaction(async (tx) => {
    const set: PgUpdateSetSource<typeof webhookEndpoints> = { updatedAt: sql`now()` };
    if (body.url !== undefined) set.url = body.url;
    if (body.description !== undefined) set.description = body.description;
    if (body.event_types !== undefined) set.eventTypes = normaliseEventTypes(body.event_types);
    if (body.disabled === true) {
      set.disabledAt = sql`coalesce(${webhookEndpoints.disabledAt}, now())`;
      set.disabledReason = sql`coalesce(${webhookEndpoints.disabledReason}, 'disabled by the team')`;
    } else if (body.disabled === false) {
      set.disabledAt = null;
      set.disabledReason = null;
    }
    const [row] = await tx
      .update(webhookEndpoints)
      .set(set)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.teamId, teamId)))
      .returning();
    if (!row) throw new NotFound('Webhook endpoint');
    if (body.disabled === true) await cancelPendingDeliveries(tx, endpointId);
    return present(row);
  });
}

export async function deleteEndpoint(db: Db, teamId: string, endpointId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await endpointRow(tx, teamId, endpointId);
    await cancelPendingDeliveries(tx, endpointId); // retires their jobs
    await tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.teamId, teamId)));
  });
}

async function presentDeliveries(db: Db, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookDeliveryAttempts)
        .where(inArray(webhookDeliveryAttempts.deliveryId, ids))
        .orderBy(asc(webhookDeliveryAttempts.id))
    : [];
  const byDelivery = new Map<string, typeof attempts>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return rows.map((r) => ({
    id: r.id,
    endpoint_id: r.endpointId,
    event_id: r.eventId,
    event_type: r.eventType,
    subject_id: r.subject,
    status: r.status,
    attempt_count: r.attemptCount,
    next_attempt_at: iso(r.nextAttemptAt),
    last_status_code: r.lastStatusCode,
    delivered_at: iso(r.deliveredAt),
    created_at: r.createdAt.toISOString(),
    attempts: (byDelivery.get(r.id) ?? []).slice(-DELIVERY_ATTEMPTS_SHOWN).map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
    })),
  }));
}

/** The endpoint's deliveries, newest event first, `limit` per page, with an opaque signed cursor. */
export async function listDeliveries(db: Db, cursors: CursorCodec, teamId: string, endpointId: string, q: DeliveriesQuery): Promise<WebhookDeliveryList> {
  await endpointRow(db, teamId, endpointId);
  let before: number | null = null;
  if (q.cursor) {
    const c = cursors.decode(q.cursor, ['query', 'cursor']);
    if (c.k !== 'webhook_deliveries' || c.e !== endpointId || (c.s ?? null) !== (q.status ?? null) || typeof c.seq !== 'number') {
      throw new Invalid(['query', 'cursor'], 'cursor belongs to another list', 'value_error.cursor');
    }
    before = c.seq;
  }
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.teamId, teamId),
        q.status ? eq(webhookDeliveries.status, q.status) : undefined,
        before !== null ? lt(webhookDeliveries.seq, before) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.seq))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const more = rows.length > q.limit;
  return {
    data: await presentDeliveries(db, page),
    next_cursor: more ? cursors.encode({ k: 'webhook_deliveries', e: endpointId, s: q.status ?? null, seq: page[page.length - 1]!.seq }) : null,
  };
}

async function deliveryRow(db: Db, teamId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.teamId, teamId)));
  if (!row) throw new NotFound('Webhook delivery');
  return row;
}

export async function getDelivery(db: Db, teamId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  await endpointRow(db, teamId, endpointId);
  return (await presentDeliveries(db, [await deliveryRow(db, teamId, endpointId, deliveryId)]))[0]!;
}

/**
 * Sends a finished delivery again: a new round of attempts with the same webhook-id, starting
 * now. A delivery still pending is already on its way (409); so is one to a disabled endpoint.
 */
export async function replayDelivery(db: Db, teamId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  await db.transaction(async (tx) => {
    const endpoint = await endpointRow(tx, teamId, endpointId);
    const [row] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.teamId, teamId)))
      .for('update');
    if (!row) throw new NotFound('Webhook delivery');
    if (endpoint.disabledAt) throw new ServiceError(409, 'The webhook endpoint is disabled: enable it (PATCH disabled=false) before replaying');
    if (row.status === 'pending') throw new ServiceError(409, 'The delivery is still pending');
    const jobId = await enqueueDelivery(tx, row.id);
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', attemptCount: 0, nextAttemptAt: sql`now()`, deliveredAt: null, jobId, updatedAt: sql`now()` })
      .where(eq(webhookDeliveries.id, row.id));
  });
  return getDelivery(db, teamId, endpointId, deliveryId);
}

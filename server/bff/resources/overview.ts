import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { can, ErrorBody, isQueueError, Overview, OverviewQuery, OVERVIEW_WALK_CAP, type OverviewQueueError, type Permission } from '../api';
import { auditEvents } from '../db/schema';
import type { ServiceClient } from '../upstream/client';
import { toBffError, UpstreamError } from '../upstream/errors';
import { AppointmentDirectory } from './appointmentDirectory';
import {
  appointmentCounts,
  type AppointmentCounts,
  criticalUnacknowledged,
  failedWebhookDeliveries,
  ordersNeedingAttention,
  reportsAwaitingReview,
} from './overviewCounts';

const RESOURCE = 'overview';
/**
 * The overview answers counts only: no patient, record or value leaves with it. Recording every
 * 30-second refresh would bury the trail's real reads of health data under thousands of identical
 * lines, so it is recorded once per session per hour: enough to say who watched the queues when.
 */
export const OVERVIEW_AUDIT_EVERY_MS = 60 * 60_000;

export interface OverviewOptions {
  now?: () => Date;
}

/** Names the session in the trail without revealing anything usable: a hash of the session's token hash. */
const sessionTag = (req: FastifyRequest) => createHash('sha256').update(req.session!.tokenHash).digest('hex').slice(0, 16);

/** In the store, not in memory: several BFF processes share the trail, so they share the "already recorded". */
async function recordedWithinHour(app: FastifyInstance, req: FastifyRequest, tag: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - OVERVIEW_AUDIT_EVERY_MS);
  const [row] = await app.bffDb
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.resource, RESOURCE),
        eq(auditEvents.staffId, req.session!.user.id),
        gt(auditEvents.at, since),
        sql`${auditEvents.detail}->>'session' = ${tag}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Why a queue could not be counted, in the words the dashboard shows for any failed service call. */
function queueErrorMessage(err: unknown): string {
  return err instanceof UpstreamError ? toBffError(err).message : 'The count failed unexpectedly; try again in a moment';
}

/**
 * A queue's count, or why it could not be read: one failing service call costs its own card only,
 * never the whole overview. The log names the queue and the call, never what was counted.
 */
async function counted<T>(req: FastifyRequest, queue: string, count: () => Promise<T>): Promise<T | OverviewQueueError> {
  try {
    return await count();
  } catch (err) {
    const upstream = err instanceof UpstreamError ? { operation: err.operation, status: err.status, reason: err.reason } : { error: (err as Error)?.name };
    req.log.warn({ queue, ...upstream }, 'overview: a queue could not be counted');
    return { error: queueErrorMessage(err) };
  }
}

/**
 * `GET /api/overview`: what needs the signed-in member, per queue. Every signed-in member may ask (the
 * /api scope checks the session); each queue is counted only for a role that holds the queue's permission (the others get no key).
 */
export function overviewResource(client: ServiceClient, opts: OverviewOptions = {}): FastifyPluginAsyncZod {
  const now = opts.now ?? (() => new Date());
  return async (app) => {
    // Its own walk, kept for the polling interval: every member's refresh within it shares one walk.
    const directory = new AppointmentDirectory(client, { maxOrders: OVERVIEW_WALK_CAP, ttlMs: 30_000 });

    app.get(
      '',
      {
        schema: { operationId: 'getOverview', tags: ['overview'], querystring: OverviewQuery, response: { 200: Overview, '4XX': ErrorBody } },
        config: { audit: { resource: RESOURCE, action: 'read', records: () => [], patients: () => [] } },
      },
      async (req) => {
        const at = now();
        const zone = req.query.time_zone;
        const role = req.session!.user.role;
        const may = (permission: Permission) => can(role, permission);
        const seesAppointments = may('appointments:read');
        const [orders, critical, reports, appointments, webhooks] = await Promise.all([
          may('orders:read') ? counted(req, 'orders_needing_attention', () => ordersNeedingAttention(client, app.bffDb)) : undefined,
          may('results:acknowledge') ? counted(req, 'critical_results_unacknowledged', () => criticalUnacknowledged(client)) : undefined,
          may('parser:review') ? counted(req, 'reports_awaiting_review', () => reportsAwaitingReview(client)) : undefined,
          seesAppointments ? counted(req, 'appointments', () => appointmentCounts(directory, zone, at)) : undefined,
          may('webhooks:manage') ? counted(req, 'failed_webhook_deliveries', () => failedWebhookDeliveries(client)) : undefined,
        ]);
        // One walk feeds both appointment queues: when it fails, both say why.
        const appointmentQueue = <K extends keyof AppointmentCounts>(key: K) => appointments && (isQueueError(appointments) ? appointments : appointments[key]);
        const waiting = may('appointments:write') ? appointmentQueue('waiting') : undefined;
        const upcoming = appointmentQueue('upcoming');
        const answer: Overview = {
          generated_at: at.toISOString(),
          time_zone: zone,
          ...(orders && { orders_needing_attention: orders }),
          ...(critical && { critical_results_unacknowledged: critical }),
          ...(reports && { reports_awaiting_review: reports }),
          ...(waiting && { appointment_requests_waiting: waiting }),
          ...(upcoming && { appointments_upcoming: upcoming }),
          ...(webhooks && { failed_webhook_deliveries: webhooks }),
        };
        const tag = sessionTag(req);
        // Marked as recorded, the audit hook writes nothing for this refresh.
        if (await recordedWithinHour(app, req, tag, at)) req.audited = true;
        else req.auditNote.detail = { session: tag, queues: Object.keys(answer).filter((k) => k !== 'generated_at' && k !== 'time_zone') };
        return answer;
      },
    );
  };
}

import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { can, ErrorBody, Overview, OverviewQuery, OVERVIEW_WALK_CAP, type Permission } from '../api';
import { auditEvents } from '../db/schema';
import type { ServiceClient } from '../upstream/client';
import { AppointmentDirectory } from './appointmentDirectory';
import {
  appointmentCounts,
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
          may('orders:read') ? ordersNeedingAttention(client) : undefined,
          may('results:acknowledge') ? criticalUnacknowledged(client) : undefined,
          may('parser:review') ? reportsAwaitingReview(client) : undefined,
          seesAppointments ? appointmentCounts(directory, zone, at) : undefined,
          may('webhooks:manage') ? failedWebhookDeliveries(client) : undefined,
        ]);
        const answer: Overview = {
          generated_at: at.toISOString(),
          time_zone: zone,
          ...(orders && { orders_needing_attention: orders }),
          ...(critical && { critical_results_unacknowledged: critical }),
          ...(reports && { reports_awaiting_review: reports }),
          ...(appointments && may('appointments:write') && { appointment_requests_waiting: appointments.waiting }),
          ...(appointments && { appointments_upcoming: appointments.upcoming }),
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

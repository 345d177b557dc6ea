import type { FastifyPluginAsync } from 'fastify';
import { listAuditEvents } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { listHeaders, parseListParams } from '../pagination';

/** react-admin resource `audit-events`, newest first; admins only. */
export const auditEventsResource: FastifyPluginAsync = async (app) => {
  app.get('/', { preValidation: requirePermission('audit:read', 'read the audit trail') }, async (req, reply) => {
    const params = parseListParams(req.query as Record<string, unknown>, { defaultSort: { field: 'at', order: 'DESC' } });
    if (!['id', 'at'].includes(params.sort.field) || params.sort.order !== 'DESC') {
      throw new BffError(400, 'The audit trail is listed newest first only');
    }
    const f = params.filter;
    const date = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v) : undefined);
    const [first, last] = params.range;
    const { rows, total } = await listAuditEvents(
      app.bffDb,
      {
        staffId: typeof f.staff_id === 'string' ? f.staff_id : undefined,
        resource: typeof f.resource === 'string' ? f.resource : undefined,
        action: typeof f.action === 'string' ? f.action : undefined,
        from: date(f.from),
        to: date(f.to),
      },
      first,
      last - first + 1,
    );
    const items = rows.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      staff_id: r.staffId,
      staff_email: r.staffEmail,
      action: r.action,
      resource: r.resource,
      record_ids: r.recordIds,
      detail: r.detail,
      outcome: r.outcome,
      status_code: r.statusCode,
      ip: r.ip,
    }));
    return reply.headers(listHeaders('audit-events', first, { items, total, hasNextPage: last + 1 < total })).send(items);
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditEventRecord, AuditEventsList, ErrorBody } from '../api';
import { listAuditEvents } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { sendList } from '../pagination';

/** react-admin resource `audit-events`, newest first; admins only. */
export const auditEventsResource: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      preValidation: requirePermission('audit:read', 'read the audit trail'),
      schema: { operationId: 'listAuditEvents', tags: ['audit'], querystring: AuditEventsList, response: { 200: z.array(AuditEventRecord), '4XX': ErrorBody } },
      // Reading the trail is itself recorded: who looked at whose accesses.
      config: { audit: { resource: 'audit_events', action: 'list', records: () => [], patients: () => [] } },
    },
    async (req, reply) => {
      const { filter: f, range } = req.query;
      req.auditNote.detail = { range, staff_id: f.staff_id ?? null, patient_id: f.patient_id ?? null, resource: f.resource ?? null, action: f.action ?? null };
      const [first, last] = range;
      const { rows, total } = await listAuditEvents(
        app.bffDb,
        {
          staffId: f.staff_id,
          resource: f.resource,
          action: f.action,
          patientId: f.patient_id,
          outcome: f.outcome,
          from: f.from ? new Date(f.from) : undefined,
          to: f.to ? new Date(f.to) : undefined,
        },
        first,
        last - first + 1,
      );
      const items: AuditEventRecord[] = rows.map((r) => ({
        id: String(r.id),
        at: r.at.toISOString(),
        staff_id: r.staffId,
        staff_email: r.staffEmail,
        action: r.action,
        resource: r.resource,
        record_ids: r.recordIds,
        patient_ids: r.patientIds,
        detail: r.detail,
        outcome: r.outcome as AuditEventRecord['outcome'],
        status_code: r.statusCode,
        ip: r.ip,
      }));
      return sendList(reply, 'audit-events', first, { items, total, hasNextPage: last + 1 < total });
    },
  );
};

import type { AuditAction } from '../api/audit';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_EXPORT_COLUMNS, AuditChainCheck, AuditEventRecord, AuditEventsList, AuditExportQuery, ErrorBody } from '../api';
import { allAuditEvents, listAuditEvents, type AuditQuery } from '../audit/audit';
import { verifyChain, type AuditRow } from '../audit/chain';
import { csvLine } from '../audit/csv';
import { requirePermission } from '../auth/plugin';
import { staffDisplayNames } from '../auth/staff';
import { sendList } from '../pagination';

const TAGS = ['audit'];
type Filter = z.output<typeof AuditEventsList>['filter'];

const queryOf = (f: Filter): AuditQuery => ({
  staffId: f.staff_id,
  resource: f.resource,
  action: f.action,
  patientId: f.patient_id,
  outcome: f.outcome,
  from: f.from ? new Date(f.from) : undefined,
  to: f.to ? new Date(f.to) : undefined,
});

/** What the audit trail records of a reading of the audit trail: which filters, never their values but ids. */
const filterDetail = (f: Filter) => ({ staff_id: f.staff_id ?? null, patient_id: f.patient_id ?? null, resource: f.resource ?? null, action: f.action ?? null, outcome: f.outcome ?? null });

const recordOf = (r: AuditRow, names: Map<string, string> = new Map()): AuditEventRecord => ({
  id: String(r.id),
  at: r.at.toISOString(),
  staff_id: r.staffId,
  staff_email: r.staffEmail,
  staff_name: (r.staffId && names.get(r.staffId)) ?? null,
  staff_role: r.staffRole,
  action: r.action,
  resource: r.resource,
  record_ids: r.recordIds,
  patient_ids: r.patientIds,
  detail: r.detail,
  outcome: r.outcome as AuditEventRecord['outcome'],
  status_code: r.statusCode,
  ip: r.ip,
});

/**
 * react-admin resource `audit-events` (admins only): the trail newest first, whether its hash chain
 * is intact, and a CSV export. Reading the trail is itself recorded: who looked at whose accesses.
 */
export const auditEventsResource: FastifyPluginAsyncZod = async (app) => {
  const canRead = requirePermission('audit:read', 'read the audit trail');
  const recorded = (action: AuditAction) => ({ audit: { resource: 'audit_events', action, records: () => [], patients: () => [] } });

  app.get(
    '',
    {
      preValidation: canRead,
      schema: { operationId: 'listAuditEvents', tags: TAGS, querystring: AuditEventsList, response: { 200: z.array(AuditEventRecord), '4XX': ErrorBody } },
      config: recorded('list'),
    },
    async (req, reply) => {
      const { filter, range } = req.query;
      const [first, last] = range;
      req.auditNote.detail = { range, ...filterDetail(filter) };
      const { rows, total } = await listAuditEvents(app.bffDb, queryOf(filter), first, last - first + 1);
      // The page names the actor; the trail itself keeps the id and e-mail of the time.
      const names = await staffDisplayNames(app.bffDb, rows.map((r) => r.staffId));
      return sendList(reply, 'audit-events', first, { items: rows.map((r) => recordOf(r, names)), total, hasNextPage: last + 1 < total });
    },
  );

  app.get(
    '/verify',
    {
      preValidation: canRead,
      schema: { operationId: 'verifyAuditTrail', tags: TAGS, response: { 200: AuditChainCheck, '4XX': ErrorBody } },
      config: recorded('verify'),
    },
    async (req) => {
      const check = await verifyChain(app.bffDb);
      req.auditNote.detail = { ok: check.ok, checked: check.checked, first_broken_id: check.first_broken_id ?? null };
      return check;
    },
  );

  app.get(
    '/export',
    {
      preValidation: canRead,
      schema: {
        operationId: 'exportAuditEvents',
        tags: TAGS,
        querystring: AuditExportQuery,
        produces: ['text/csv'],
        response: { 200: z.any().describe(`CSV, oldest first: ${AUDIT_EXPORT_COLUMNS.join(', ')}`), '4XX': ErrorBody },
      },
      config: recorded('export'),
    },
    async (req, reply) => {
      const filter = req.query.filter ?? {};
      req.auditNote.detail = filterDetail(filter as Filter);
      const events = allAuditEvents(app.bffDb, queryOf(filter as Filter));
      async function* lines() {
        yield csvLine([...AUDIT_EXPORT_COLUMNS]);
        for await (const rows of events) {
          yield rows
            .map((r) => {
              const e = recordOf(r);
              return csvLine([e.id, e.at, e.staff_id, e.staff_email, e.staff_role, e.action, e.resource, e.record_ids.join(' '), e.patient_ids.join(' '), e.outcome, e.status_code, e.ip, e.detail, r.hash]);
            })
            .join('');
        }
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="labdesk-audit-${day}.csv"`)
        .send(Readable.from(lines()));
    },
  );
};

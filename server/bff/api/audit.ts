import { z } from 'zod';
import { filter, listQuery } from './list';

/** What an audited access did. The BFF's routes may declare only these (the compiler checks), and the audit page filters by them. */
export const AUDIT_ACTIONS = [
  'list',
  'read',
  'get_many',
  'create',
  'update',
  'delete',
  'cancel',
  'availability',
  'book',
  'request',
  'reschedule',
  'upload',
  'download',
  'review',
  'reveal',
  'replay',
  'acknowledge',
  'claim',
  'unclaim',
  'resolve',
  'reship',
  'recreate',
  'login',
  'logout',
  'mfa_enrol',
  'mfa_confirm',
  'mfa_reset',
  'verify',
  'export',
  'denied',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** `throttled`: a sign-in refused by the lock of its account or address (429). */
export const AUDIT_OUTCOMES = ['ok', 'denied', 'failed', 'throttled'] as const;

/** `audit-events`: who looked at or changed what, and when. Ids and shapes only, never health data. */
export const AuditEventRecord = z
  .object({
    id: z.string(),
    at: z.string(),
    staff_id: z.string().nullable(),
    staff_email: z.string().nullable(),
    staff_name: z.string().nullable().describe("The staff member's name now (else e-mail); null when the member is unknown"),
    staff_role: z.string().nullable().describe('The role at the time'),
    action: z.string(),
    resource: z.string(),
    record_ids: z.array(z.string()),
    patient_ids: z.array(z.string()).describe("The patients' user ids whose data the access touched"),
    detail: z.record(z.string(), z.unknown()),
    outcome: z.enum(AUDIT_OUTCOMES),
    status_code: z.number().int().nullable(),
    ip: z.string().nullable(),
  })
  .meta({ id: 'AuditEventRecord' });
export type AuditEventRecord = z.infer<typeof AuditEventRecord>;

/** The trail is listed newest first only. */
export const AuditEventsList = listQuery({
  filter: {
    staff_id: filter.uuid(),
    resource: filter.string(64),
    action: filter.string(64),
    outcome: filter.string(16).describe(AUDIT_OUTCOMES.join(', ')),
    patient_id: filter.string(100).describe("Accesses to one patient's data (their user id)"),
    from: filter.dateBound('start'),
    to: filter.dateBound('end'),
  },
  sort: { id: ['DESC'], at: ['DESC'] },
  defaultSort: { field: 'at', order: 'DESC' },
});

/** `GET /api/audit-events/verify`: whether the chain is intact, and where it first breaks. */
export const AuditChainCheck = z
  .object({
    ok: z.boolean(),
    checked: z.number().int().describe('Events whose hash was checked'),
    first_broken_id: z.string().optional().describe('The first event that no longer matches its content or its predecessor'),
  })
  .meta({ id: 'AuditChainCheck' });
export type AuditChainCheck = z.infer<typeof AuditChainCheck>;

/** `GET /api/audit-events/export`: the list's filters, every matching event, oldest first, as CSV. */
export const AuditExportQuery = z.object({ filter: AuditEventsList.def.in.shape.filter });
export const AUDIT_EXPORT_COLUMNS = [
  'id',
  'at',
  'staff_id',
  'staff_email',
  'staff_role',
  'action',
  'resource',
  'record_ids',
  'patient_ids',
  'outcome',
  'status_code',
  'ip',
  'detail',
  'hash',
] as const;

import { and, asc, desc, eq, gt, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../store/db';
import { auditEvents, type BffSchema } from '../db/schema';
import { appendEvent } from './chain';
import type { AUDIT_OUTCOMES } from '../api/audit';

type Db = Database<BffSchema>;

export interface AuditEntry {
  action: string;
  resource: string;
  recordIds?: string[];
  /** Patients (service user ids) whose data was touched. */
  patientIds?: string[];
  /** Shapes, counts and ranges only: never health values, names or free text. */
  detail?: Record<string, unknown>;
  outcome?: (typeof AUDIT_OUTCOMES)[number];
  statusCode?: number;
}

/**
 * Writes one audit event. Awaited by callers: if the trail cannot be written, the access fails
 * rather than going unrecorded.
 */
export async function audit(db: Db, req: FastifyRequest, entry: AuditEntry, who?: { id: string; email: string; role?: string }) {
  const staffUser = who ?? req.session?.user;
  await appendEvent(db, {
    staffId: staffUser?.id ?? null,
    staffEmail: staffUser?.email ?? null,
    staffRole: staffUser?.role ?? null,
    action: entry.action,
    resource: entry.resource,
    recordIds: entry.recordIds ?? [],
    patientIds: entry.patientIds ?? [],
    detail: entry.detail ?? {},
    outcome: entry.outcome ?? 'ok',
    statusCode: entry.statusCode ?? null,
    ip: req.ip,
  });
}

export interface AuditQuery {
  staffId?: string;
  resource?: string;
  action?: string;
  patientId?: string;
  outcome?: string;
  from?: Date;
  to?: Date;
}

function matching(q: AuditQuery): SQL | undefined {
  const where: SQL[] = [];
  if (q.staffId) where.push(eq(auditEvents.staffId, q.staffId));
  if (q.resource) where.push(eq(auditEvents.resource, q.resource));
  if (q.action) where.push(eq(auditEvents.action, q.action));
  if (q.outcome) where.push(eq(auditEvents.outcome, q.outcome));
  if (q.patientId) where.push(sql`${auditEvents.patientIds} @> ${JSON.stringify([q.patientId.toLowerCase()])}::jsonb`);
  if (q.from) where.push(gte(auditEvents.at, q.from));
  if (q.to) where.push(lte(auditEvents.at, q.to));
  return where.length ? and(...where) : undefined;
}

/** A page of the trail, newest first, with the number of matching events. */
export async function listAuditEvents(db: Db, q: AuditQuery, offset: number, limit: number) {
  const cond = matching(q);
  const [rows, [total]] = await Promise.all([
    db.select().from(auditEvents).where(cond).orderBy(desc(auditEvents.at), desc(auditEvents.id)).offset(offset).limit(limit),
    db.select({ n: sql<number>`count(*)::int` }).from(auditEvents).where(cond),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Every matching event, oldest first, a thousand at a time (an export never holds the whole trail). */
export async function* allAuditEvents(db: Db, q: AuditQuery) {
  const cond = matching(q);
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(and(cond, gt(auditEvents.id, after)))
      .orderBy(asc(auditEvents.id))
      .limit(1000);
    if (rows.length) yield rows;
    if (rows.length < 1000) return;
    after = rows[rows.length - 1]!.id;
  }
}

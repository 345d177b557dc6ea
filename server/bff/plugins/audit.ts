import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { audit, type AuditEntry } from '../audit/audit';
import type { AuditAction } from '../api/audit';

/**
 * The audit trail, declared per route rather than written by handlers. A route names what it
 * touches in `config.audit` (resource and action, how to find the records and the patients in its
 * answer); this plugin records every outcome of that route in one place:
 * - success, before the answer is sent (if the trail cannot be written, the access fails rather
 *   than going unrecorded);
 * - failure and denial, from the BFF's one error handler (`auditFailure`).
 * A handler may add what only it knows (how far a walk went, the patient of an upload) with
 * `req.auditNote`: shapes, counts and ids only, never health values, names or free text.
 */

export interface AuditSpec<Answer = unknown> {
  resource: string;
  action: AuditAction;
  /** Records the answer touched; by default its `id`, or each list item's `id`. */
  records?: (answer: Answer) => string[];
  /** Patients (service user ids) whose data the answer carries; by default its `user_id`, or each item's. */
  patients?: (answer: Answer) => (string | null | undefined)[];
}

export interface AuditNote {
  /** A different action than the route's for this request (a list route answering a getMany reads). */
  action?: AuditAction;
  detail?: Record<string, unknown>;
  /** Records and patients known before (or without) an answer: a failed change, a stream. */
  recordIds?: string[];
  patientIds?: (string | null | undefined)[];
  /** Sign-in: the staff member the attempt was for (there is no session yet). */
  who?: { id: string; email: string; role?: string };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditSpec<never>;
  }
  interface FastifyRequest {
    auditNote: AuditNote;
    /** Set once this request's access is recorded, so no path records it twice. */
    audited: boolean;
  }
}

const idOf = (v: unknown): string | null => {
  if (v && typeof v === 'object' && 'id' in v) {
    const id = (v as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return null;
};
const userIdOf = (v: unknown): string | null => {
  if (v && typeof v === 'object' && 'user_id' in v) {
    const id = (v as { user_id: unknown }).user_id;
    if (typeof id === 'string') return id;
  }
  return null;
};
const each = <T>(answer: unknown, pick: (v: unknown) => T | null): T[] =>
  (Array.isArray(answer) ? answer.map(pick) : [pick(answer)]).filter((x): x is T => x !== null);

const unique = (ids: (string | null | undefined)[]) => [...new Set(ids.filter((i): i is string => typeof i === 'string' && i !== '').map((i) => i.toLowerCase()))];

/** The id in the route's path, for accesses that failed before anything was answered. */
function pathIds(req: FastifyRequest): string[] {
  const params = req.params as Record<string, unknown> | undefined;
  const id = params?.id;
  return typeof id === 'string' && id.length <= 100 ? [id.toLowerCase()] : [];
}

function specOf(req: FastifyRequest): AuditSpec<unknown> | undefined {
  return req.routeOptions.config?.audit as AuditSpec<unknown> | undefined;
}

async function recordSuccess(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, answer: unknown) {
  const spec = specOf(req);
  if (!spec || req.audited || reply.statusCode >= 400) return;
  req.audited = true;
  const note = req.auditNote;
  const hasAnswer = answer !== undefined;
  const entry: AuditEntry = {
    action: note.action ?? spec.action,
    resource: spec.resource,
    recordIds: unique([...(note.recordIds ?? []), ...(hasAnswer ? (spec.records?.(answer) ?? each(answer, idOf)) : pathIds(req))]),
    patientIds: unique([...(note.patientIds ?? []), ...(hasAnswer ? (spec.patients?.(answer) ?? each(answer, userIdOf)) : [])]),
    detail: note.detail,
  };
  await audit(app.bffDb, req, entry, note.who);
}

/** Called by the error handler: a declared route's failure (or denial), or any denial of a signed-in member. */
export async function auditFailure(app: FastifyInstance, req: FastifyRequest, statusCode: number): Promise<void> {
  if (req.audited) return;
  const spec = specOf(req);
  const denied = statusCode === 401 || statusCode === 403;
  if (!spec) {
    // Undeclared routes (and unknown URLs): denials of signed-in staff are still worth a line.
    if (statusCode !== 403 || !req.session) return;
    req.audited = true;
    await audit(app.bffDb, req, { action: 'denied', resource: req.routeOptions.url ?? 'unknown route', outcome: 'denied', statusCode });
    return;
  }
  // Without a session only refusals are worth a line (a wrong password, a throttled sign-in); a
  // malformed request from nobody touched nothing.
  if (!req.session && ![401, 403, 429].includes(statusCode)) return;
  req.audited = true;
  const note = req.auditNote;
  await audit(
    app.bffDb,
    req,
    {
      action: note.action ?? spec.action,
      resource: spec.resource,
      recordIds: unique([...(note.recordIds ?? []), ...pathIds(req)]),
      patientIds: unique(note.patientIds ?? []),
      detail: note.detail,
      outcome: statusCode === 429 ? 'throttled' : denied ? 'denied' : 'failed',
      statusCode,
    },
    note.who,
  );
}

async function auditPlugin(app: FastifyInstance) {
  app.decorateRequest('auditNote', null as never);
  app.decorateRequest('audited', false);
  app.addHook('onRequest', async (req) => {
    req.auditNote = {};
  });
  // Objects (records, lists) pass here before they are serialised.
  app.addHook('preSerialization', async (req, reply, payload) => {
    await recordSuccess(app, req, reply, payload);
    return payload;
  });
  // Files and empty answers (streams, 204) do not: recorded from the path and the note.
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.audited && specOf(req) && reply.statusCode < 400) await recordSuccess(app, req, reply, undefined);
    return payload;
  });
}

export default fp(auditPlugin, { name: 'bff-audit', dependencies: ['bff-db'] });

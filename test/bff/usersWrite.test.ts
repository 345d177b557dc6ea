/**
 * Creating and editing patients through the BFF (`POST /api/users`, `PUT /api/users/:id`) against
 * the real service: who may, how the service's refusals reach the form's fields, and the audit trail.
 */
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/bff/db/schema';
import { startBff, startService, UNKNOWN_UUID, type BffFixture, type ServiceFixture, type Session, type UserRecordBody } from './harness';

let service: ServiceFixture;
let bff: BffFixture;
let coordinator: Session;

beforeAll(async () => {
  service = await startService();
  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  coordinator = await bff.login('coordinator');
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

/** A record on success, the BFF's error shape otherwise. */
type Written = UserRecordBody & {
  fallback_birth_date?: { value: string } | null;
  ingestion_start?: string | null;
  message: string;
  errors?: Record<string, string>;
  code?: string;
};

const create = (payload: unknown, session: Session = coordinator) =>
  bff.request<Written>({ method: 'POST', url: '/api/users', session, payload });
const update = (id: string, payload: unknown, session: Session = coordinator) =>
  bff.request<Written>({ method: 'PUT', url: `/api/users/${id}`, session, payload });
const maxAuditId = async () => (await bff.db.select({ id: auditEvents.id }).from(auditEvents)).reduce((m, r) => Math.max(m, Number(r.id)), 0);
const auditSince = async (from: number) =>
  bff.db.select().from(auditEvents).where(and(gt(auditEvents.id, from), eq(auditEvents.resource, 'users'))).orderBy(auditEvents.id);

describe('creating a patient', () => {
  it('creates the user upstream, answers the record, and audits the creation without the values', async () => {
    const from = await maxAuditId();
    const r = await create({ client_user_id: 'pt-create-001', fallback_time_zone: 'Europe/Paris', fallback_birth_date: '1984-02-29' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: r.body.user_id, client_user_id: 'pt-create-001', team_id: service.team.teamId });
    expect(r.body.fallback_time_zone).toMatchObject({ id: 'Europe/Paris' });

    const read = await bff.get<UserRecordBody>(`/api/users/${r.body.id}`, coordinator);
    expect(read.body.client_user_id).toBe('pt-create-001');

    const rows = await auditSince(from);
    const created = rows.find((x) => x.action === 'create');
    expect(created).toMatchObject({ outcome: 'ok', staffId: bff.staff.coordinator.id, recordIds: [r.body.id] });
    expect(created!.detail).toEqual({ fields: ['client_user_id', 'fallback_time_zone', 'fallback_birth_date'] });
    expect(JSON.stringify(created)).not.toContain('1984-02-29');
  });

  it('puts the service’s refusal of an e-mail-like or phone-like client id on the client_user_id field', async () => {
    for (const id of ['ana@example.com', '+1 415 555 0134']) {
      const r = await create({ client_user_id: id });
      expect(r.status).toBe(422);
      expect(r.body.errors?.client_user_id).toMatch(/personally identifiable information/);
      expect(r.body.message).toMatch(/^client_user_id: /);
    }
  });

  it('answers a client id the team already uses as a field message, and audits the failure', async () => {
    await create({ client_user_id: 'pt-dup-001' });
    const from = await maxAuditId();
    const r = await create({ client_user_id: 'pt-dup-001' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('duplicate_client_user_id');
    expect(r.body.errors?.client_user_id).toMatch(/already has this client user id/);
    const rows = await auditSince(from);
    expect(rows.map((x) => [x.action, x.outcome, x.statusCode])).toEqual([['create', 'failed', 409]]);
  });

  it('refuses lab operations and parser reviewers (403), audited as denied, and creates nothing', async () => {
    for (const who of ['lab_ops', 'reviewer'] as const) {
      const session = await bff.login(who);
      const from = await maxAuditId();
      const r = await create({ client_user_id: `pt-denied-${who}` }, session);
      expect(r.status).toBe(403);
      const rows = await auditSince(from);
      expect(rows.map((x) => [x.action, x.outcome])).toEqual([['create', 'denied']]);
    }
    const search = await bff.get<UserRecordBody[]>(`/api/users?filter=${encodeURIComponent(JSON.stringify({ q: 'pt-denied-' }))}`, coordinator);
    expect(search.body).toEqual([]);
  });
});

describe('editing a patient', () => {
  it('changes only what differs, clears with null, and audits the fields changed', async () => {
    const made = await create({ client_user_id: 'pt-edit-001', fallback_time_zone: 'America/Chicago', fallback_birth_date: '1990-01-01' });
    const from = await maxAuditId();
    // react-admin sends the whole form back; the unchanged client id must not count as a change.
    const r = await update(made.body.id, { client_user_id: 'pt-edit-001', fallback_time_zone: 'Asia/Tokyo', fallback_birth_date: null, ingestion_start: '2026-01-01' });
    expect(r.status).toBe(200);
    expect(r.body.fallback_time_zone).toMatchObject({ id: 'Asia/Tokyo' });
    expect(r.body.fallback_birth_date ?? null).toBeNull();
    expect(r.body.ingestion_start).toBe('2026-01-01');
    const rows = await auditSince(from);
    expect(rows.map((x) => [x.action, x.outcome, x.recordIds])).toEqual([['update', 'ok', [made.body.id]]]);
    expect(rows[0]!.detail).toEqual({ fields: ['fallback_time_zone', 'fallback_birth_date', 'ingestion_start'] });
  });

  it('maps the service’s 422 to the field and a taken client id to a field message', async () => {
    const a = await create({ client_user_id: 'pt-edit-a' });
    await create({ client_user_id: 'pt-edit-b' });
    const pii = await update(a.body.id, { client_user_id: 'a.person@example.org' });
    expect(pii.status).toBe(422);
    expect(pii.body.errors?.client_user_id).toMatch(/e-mail address/);
    const zone = await update(a.body.id, { fallback_time_zone: 'Mars/Olympus' });
    expect(zone.status).toBe(422);
    expect(zone.body.errors?.fallback_time_zone).toMatch(/IANA/);
    const taken = await update(a.body.id, { client_user_id: 'pt-edit-b' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors?.client_user_id).toMatch(/already has this client user id/);
    const unchanged = await bff.get<UserRecordBody>(`/api/users/${a.body.id}`, coordinator);
    expect(unchanged.body.client_user_id).toBe('pt-edit-a');
  });

  it('answers 404 for an unknown patient and 403 for lab operations', async () => {
    expect((await update(UNKNOWN_UUID, { client_user_id: 'x-1' })).status).toBe(404);
    const made = await create({ client_user_id: 'pt-edit-labops' });
    const labOps = await bff.login('lab_ops');
    expect((await update(made.body.id, { client_user_id: 'pt-edit-labops-2' }, labOps)).status).toBe(403);
  });
});

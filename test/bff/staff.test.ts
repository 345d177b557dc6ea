/**
 * Staff management and two-factor sign-in, through the BFF's HTTP API on every store kind: what an
 * admin does on the Staff page, and what the member then meets at sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RolePolicyRecord, SessionAnswer, StaffRecord } from '../../server/bff/api';
import { currentCode } from '../../server/bff/auth/mfa';
import { staff as staffTable } from '../../server/bff/db/schema';
import { eq, inArray } from 'drizzle-orm';
import { listOf, listQuery, startBff, startService, storeKinds, type BffFixture, type ServiceFixture, type Session } from './harness';

const GOOD_PASSWORD = 'violet kettle marching upstream';
const THIRTY_SECONDS = 30_000;

let service: ServiceFixture;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.close();
});

describe.each(storeKinds)('staff and two-factor (%s)', (kind) => {
  let bff: BffFixture;
  let admin: Session;
  beforeAll(async () => {
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    admin = await bff.login('admin');
  });
  afterAll(async () => {
    await bff?.close();
  });

  const signIn = (email: string, password: string, code?: string) =>
    bff.request<SessionAnswer & { message?: string; code?: string; mfa_required?: boolean; errors?: Record<string, string> }>({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password, ...(code !== undefined && { code }) },
    });
  const sessionOf = (r: Awaited<ReturnType<typeof signIn>>): Session => {
    const cookie = r.raw.cookies.find((c) => c.name === 'labdesk_session')!;
    return { value: cookie.value, cookie: `labdesk_session=${cookie.value}`, csrfToken: r.body.csrfToken, user: r.body.user as Session['user'] };
  };
  const create = (body: Record<string, unknown>, as: Session = admin) =>
    bff.request<StaffRecord & { message?: string; errors?: Record<string, string> }>({ method: 'POST', url: '/api/staff', session: as, payload: body });
  const update = (id: string, body: Record<string, unknown>, as: Session = admin) =>
    bff.request<StaffRecord & { message?: string; code?: string; errors?: Record<string, string> }>({ method: 'PUT', url: `/api/staff/${id}`, session: as, payload: body });
  let seq = 0;
  const newMember = async (role: string, name = 'Katherine Johnson') => {
    const email = `member${++seq}-${kind}@labdesk.test`;
    const r = await create({ email, name, role, password: GOOD_PASSWORD });
    expect(r.status).toBe(201);
    return r.body;
  };

  describe('creating staff', () => {
    it('answers 201 with the record and never a hash; the member can sign in with the role given', async () => {
      const r = await create({ email: ' Dorothy.Vaughan@Labdesk.test ', name: 'Dorothy Vaughan', role: 'reviewer', password: GOOD_PASSWORD });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(['created_at', 'disabled', 'email', 'id', 'last_sign_in_at', 'mfa_enabled', 'name', 'role']);
      expect(r.body).toMatchObject({ email: 'dorothy.vaughan@labdesk.test', name: 'Dorothy Vaughan', role: 'reviewer', disabled: false, last_sign_in_at: null, mfa_enabled: false });
      expect(JSON.stringify(r.body)).not.toMatch(/scrypt|hash/);

      const signedIn = await signIn('dorothy.vaughan@labdesk.test', GOOD_PASSWORD);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user.role).toBe('reviewer');
      const after = await bff.get<StaffRecord>(`/api/staff/${r.body.id}`, admin);
      expect(Date.parse(after.body.last_sign_in_at!)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('refuses short and common passwords on the password field', async () => {
      const short = await create({ email: `short-${kind}@labdesk.test`, name: 'A', role: 'coordinator', password: 'elevenchars' });
      expect(short.status).toBe(422);
      expect(short.body.errors?.password).toMatch(/at least 12/);
      // Twelve characters is enough when the password is not common.
      expect((await create({ email: `twelve-${kind}@labdesk.test`, name: 'A', role: 'coordinator', password: 'vk3#mq9zp!tw' })).status).toBe(201);

      for (const common of ['123qweasdzxc', 'Password2026!!', 'qwertyuiop12', 'aaaaaaaaaaaaaaaa']) {
        const r = await create({ email: `common-${kind}@labdesk.test`, name: 'A', role: 'coordinator', password: common });
        expect(r.status, common).toBe(422);
        expect(r.body.errors?.password, common).toMatch(/common/);
      }
      const personal = await create({ email: `grace.hopper-${kind}@labdesk.test`, name: 'Grace Hopper', role: 'coordinator', password: 'grace.hopper1906!' });
      expect(personal.status).toBe(422);
      expect(personal.body.errors?.password).toMatch(/name, e-mail/);
    });

    it('refuses a second member with the same e-mail (any case) on the email field, and unknown roles', async () => {
      const first = await newMember('coordinator');
      const again = await create({ email: first.email.toUpperCase(), name: 'Twin', role: 'lab_ops', password: GOOD_PASSWORD });
      expect(again.status).toBe(409);
      expect(again.body.errors?.email).toMatch(/already exists/);
      const role = await create({ email: `role-${kind}@labdesk.test`, name: 'X', role: 'superuser', password: GOOD_PASSWORD });
      expect(role.status).toBe(422);
      expect(role.body.errors?.role).toMatch(/admin, coordinator, lab_ops, reviewer/);
    });

    it('lists, searches, filters and sorts staff in react-admin’s protocol; getMany by ids', async () => {
      const a = await newMember('lab_ops', 'Mary Jackson');
      const all = await bff.get<StaffRecord[]>(`/api/staff${listQuery({ range: [0, 99], sort: ['email', 'ASC'] })}`, admin);
      expect(all.status).toBe(200);
      const { range, items } = listOf(all);
      expect(range).toMatch(/^staff 0-\d+\/\d+$/);
      expect(items.map((s) => s.email)).toEqual([...items.map((s) => s.email)].sort());
      const found = await bff.get<StaffRecord[]>(`/api/staff${listQuery({ filter: { q: 'mary jack' } })}`, admin);
      expect(found.body.map((s) => s.id)).toEqual([a.id]);
      const labOps = await bff.get<StaffRecord[]>(`/api/staff${listQuery({ filter: { role: ['lab_ops'] } })}`, admin);
      expect(labOps.body.every((s) => s.role === 'lab_ops')).toBe(true);
      const many = await bff.get<StaffRecord[]>(`/api/staff${listQuery({ filter: { id: [a.id, bff.staff.admin.id] } })}`, admin);
      expect(many.body.map((s) => s.id).sort()).toEqual([a.id, bff.staff.admin.id].sort());
      expect((await bff.get(`/api/staff${listQuery({ filter: { password: 'x' } })}`, admin)).status).toBe(400);
    });
  });

  describe('changing staff', () => {
    it('a role change ends every session of the member at once, and the new role applies', async () => {
      const member = await newMember('coordinator');
      const tab1 = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      const tab2 = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      expect((await bff.get('/api/orders', tab1)).status).not.toBe(401);

      const r = await update(member.id, { role: 'reviewer' });
      expect(r.status).toBe(200);
      expect(r.body.role).toBe('reviewer');
      expect((await bff.get('/api/auth/me', tab1)).status).toBe(401);
      expect((await bff.get('/api/auth/me', tab2)).status).toBe(401);
      const fresh = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      expect((await bff.get('/api/orders', fresh)).status).toBe(403);
    });

    it('a name change keeps sessions; a password change ends them and only the new password signs in', async () => {
      const member = await newMember('lab_ops');
      const tab = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      expect((await update(member.id, { name: 'Renamed' })).body.name).toBe('Renamed');
      expect((await bff.get('/api/auth/me', tab)).status).toBe(200);

      const weak = await update(member.id, { password: 'password1234' });
      expect(weak.status).toBe(422);
      expect(weak.body.errors?.password).toBeTruthy();
      expect((await bff.get('/api/auth/me', tab)).status).toBe(200); // a refused change ends nothing

      expect((await update(member.id, { password: 'lantern orbit seventeen cactus' })).status).toBe(200);
      expect((await bff.get('/api/auth/me', tab)).status).toBe(401);
      expect((await signIn(member.email, GOOD_PASSWORD)).status).toBe(401);
      expect((await signIn(member.email, 'lantern orbit seventeen cactus')).status).toBe(200);
    });

    it('a disabled member is signed out and cannot sign in; enabled again, they can', async () => {
      const member = await newMember('reviewer');
      const tab = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      const r = await update(member.id, { disabled: true });
      expect(r.body.disabled).toBe(true);
      expect((await bff.get('/api/parser-jobs', tab)).status).toBe(401);
      expect((await signIn(member.email, GOOD_PASSWORD)).status).toBe(401);
      expect((await update(member.id, { disabled: false })).body.disabled).toBe(false);
      expect((await signIn(member.email, GOOD_PASSWORD)).status).toBe(200);
    });

    it('the last active admin can be neither demoted nor disabled; with a second admin, either can', async () => {
      // The fixture's admin is the only admin of this store so far.
      const demote = await update(bff.staff.admin.id, { role: 'coordinator' });
      expect(demote.status).toBe(422);
      expect(demote.body.code).toBe('last_admin');
      expect(demote.body.errors?.role).toMatch(/last active admin/);
      const disable = await update(bff.staff.admin.id, { disabled: true });
      expect(disable.status).toBe(422);
      expect(disable.body.errors?.disabled).toMatch(/last active admin/);
      expect((await bff.get('/api/auth/me', admin)).status).toBe(200);

      const second = await newMember('admin', 'Second Admin');
      // A disabled admin is not an active one: disabling the second, the first is the last again.
      expect((await update(second.id, { disabled: true })).status).toBe(200);
      expect((await update(bff.staff.admin.id, { role: 'coordinator' })).status).toBe(422);
      expect((await update(second.id, { disabled: false })).status).toBe(200);
      // Two active admins demoting each other at once: one wins, one is refused. The loser is
      // refused as the last admin (422), or, when the winner's change ended the loser's session
      // before the loser's request was read, as signed out (401). Either way one admin is left.
      const secondAgain = sessionOf(await signIn(second.email, GOOD_PASSWORD));
      const [x, y] = await Promise.all([update(second.id, { role: 'coordinator' }, admin), update(bff.staff.admin.id, { role: 'coordinator' }, secondAgain)]);
      const statuses = [x.status, y.status].sort();
      expect(statuses[0]).toBe(200);
      expect([401, 422]).toContain(statuses[1]);
      const roles = await bff.db.select({ role: staffTable.role }).from(staffTable).where(inArray(staffTable.id, [second.id, bff.staff.admin.id]));
      expect(roles.filter((r) => r.role === 'admin')).toHaveLength(1);
      // Put things back for the other tests: the fixture's admin stays an admin.
      if (y.status === 200) {
        await bff.db.update(staffTable).set({ role: 'admin' }).where(eq(staffTable.id, bff.staff.admin.id));
      }
      admin = await bff.login('admin');
    });

    it('only admins manage staff: every other role is refused on every staff route, and so is no session', async () => {
      const member = await newMember('coordinator');
      for (const who of ['coordinator', 'lab_ops', 'reviewer'] as const) {
        const s = await bff.login(who);
        expect((await bff.get('/api/staff', s)).status, who).toBe(403);
        expect((await bff.get(`/api/staff/${member.id}`, s)).status, who).toBe(403);
        expect((await create({ email: `x-${who}@labdesk.test`, name: 'X', role: 'admin', password: GOOD_PASSWORD }, s)).status, who).toBe(403);
        expect((await update(bff.staff[who].id, { role: 'admin' }, s)).status, who).toBe(403);
        expect((await bff.request({ method: 'DELETE', url: `/api/staff/${member.id}/mfa`, session: s })).status, who).toBe(403);
        expect((await bff.request({ method: 'PUT', url: '/api/role-policies/reviewer', session: s, payload: { mfa_required: false } })).status, who).toBe(403);
      }
      expect((await bff.get('/api/staff')).status).toBe(401);
      expect((await bff.get(`/api/staff/${crypto.randomUUID()}`, admin)).status).toBe(404);
      expect((await bff.get('/api/staff/not-a-uuid', admin)).status).toBe(404);
    });

    it('records staff changes in the audit trail with the fields changed, never the password', async () => {
      const member = await newMember('lab_ops');
      await update(member.id, { role: 'coordinator', password: 'lantern orbit seventeen cactus' });
      const events = await bff.get<{ action: string; record_ids: string[]; detail: Record<string, unknown>; staff_id: string }[]>(
        `/api/audit-events${listQuery({ filter: { resource: 'staff', action: 'update' } })}`,
        admin,
      );
      const event = events.body.find((e) => e.record_ids.includes(member.id))!;
      expect(event.detail).toMatchObject({ changed: ['role', 'password'], from_role: 'lab_ops', to_role: 'coordinator' });
      expect(event.staff_id).toBe(bff.staff.admin.id);
      expect(JSON.stringify(events.body)).not.toContain('lantern');
    });
  });

  describe('two-factor sign-in (TOTP)', () => {
    const enrol = async (s: Session) => {
      const r = await bff.request<{ secret: string; otpauth_url: string }>({ method: 'POST', url: '/api/auth/mfa', session: s });
      expect(r.status).toBe(200);
      return r.body;
    };
    const confirm = (s: Session, code: string) =>
      bff.request<SessionAnswer & { errors?: Record<string, string> }>({ method: 'POST', url: '/api/auth/mfa/confirm', session: s, payload: { code } });

    it('enrols with a scannable secret, and from then on sign-in needs the current code, once', async () => {
      const member = await newMember('reviewer');
      const s = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      const { secret, otpauth_url } = await enrol(s);
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const url = new URL(otpauth_url);
      expect(url.protocol).toBe('otpauth:');
      expect(url.host).toBe('totp');
      expect(url.searchParams.get('secret')).toBe(secret);
      expect(url.searchParams.get('issuer')).toBe('Labdesk');
      expect(decodeURIComponent(url.pathname)).toContain(member.email);

      // Not yet confirmed: sign-in still needs only the password.
      expect((await signIn(member.email, GOOD_PASSWORD)).status).toBe(200);
      const wrong = await confirm(s, '000000');
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors?.code).toBeTruthy();
      expect((await confirm(s, 'abc')).status).toBe(422);
      const ok = await confirm(s, currentCode(secret));
      expect(ok.status).toBe(200);
      expect(ok.body.user.mfa_enabled).toBe(true);
      expect((await bff.get<StaffRecord>(`/api/staff/${member.id}`, admin)).body.mfa_enabled).toBe(true);

      const missing = await signIn(member.email, GOOD_PASSWORD);
      expect(missing.status).toBe(401);
      expect(missing.body.mfa_required).toBe(true);
      expect(missing.body.code).toBe('mfa_required');
      expect(missing.raw.cookies.find((c) => c.name === 'labdesk_session')).toBeUndefined();
      const wrongCode = await signIn(member.email, GOOD_PASSWORD, '123456' === currentCode(secret) ? '654321' : '123456');
      expect(wrongCode.status).toBe(401);
      expect(wrongCode.body.mfa_required).toBe(true);
      // The code of the previous step was used to confirm: the next step's code signs in, once.
      const next = currentCode(secret, Date.now() + THIRTY_SECONDS);
      expect((await signIn(member.email, GOOD_PASSWORD, next)).status).toBe(200);
      const replay = await signIn(member.email, GOOD_PASSWORD, next);
      expect(replay.status).toBe(401);
      expect(replay.body.message).toMatch(/already used/);
      // A wrong password with the right code is still a wrong password.
      expect((await signIn(member.email, 'not the password at all', currentCode(secret))).body.mfa_required).toBeUndefined();

      // Enrolling again over a working enrolment is refused (a stolen session cannot move it to another phone).
      expect((await bff.request({ method: 'POST', url: '/api/auth/mfa', session: s })).status).toBe(409);
    });

    it('a code is good once even when two sign-ins race with it', async () => {
      const member = await newMember('coordinator');
      const s = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      const { secret } = await enrol(s);
      expect((await confirm(s, currentCode(secret))).status).toBe(200);
      const next = currentCode(secret, Date.now() + THIRTY_SECONDS);
      const answers = await Promise.all([1, 2, 3].map(() => signIn(member.email, GOOD_PASSWORD, next)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
    });

    it('a burst of guessed codes gets no more tries than the account’s limit', async () => {
      const strict = await bff.buildApp({ signInThrottle: { windowMs: 15 * 60_000, accountLimit: 5, accountLockMs: 15 * 60_000, addressFree: 1000, addressMaxLockMs: 1000 } });
      const member = await newMember('coordinator');
      const s = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      const { secret } = await enrol(s);
      expect((await confirm(s, currentCode(secret))).status).toBe(200);
      const right = currentCode(secret, Date.now() + THIRTY_SECONDS);
      const wrong = Array.from({ length: 60 }, (_, i) => String(100000 + i * 7919).slice(0, 6)).filter((c) => c !== right && c !== currentCode(secret));
      const burst = await Promise.all(
        wrong.map((code) => bff.request<{ mfa_required?: boolean }>({ method: 'POST', url: '/api/auth/login', payload: { email: member.email, password: GOOD_PASSWORD, code }, app: strict })),
      );
      expect(burst.filter((r) => r.status === 401).length).toBeLessThanOrEqual(5);
      const after = await bff.request({ method: 'POST', url: '/api/auth/login', payload: { email: member.email, password: GOOD_PASSWORD, code: right }, app: strict });
      expect(after.status).toBe(429);
    });

    it('an admin resets a lost enrolment: the member is signed out and signs in with the password alone', async () => {
      const member = await newMember('coordinator');
      const s = sessionOf(await signIn(member.email, GOOD_PASSWORD));
      const { secret } = await enrol(s);
      expect((await confirm(s, currentCode(secret))).status).toBe(200);
      const reset = await bff.request<StaffRecord>({ method: 'DELETE', url: `/api/staff/${member.id}/mfa`, session: admin });
      expect(reset.status).toBe(200);
      expect(reset.body.mfa_enabled).toBe(false);
      expect((await bff.get('/api/auth/me', s)).status).toBe(401);
      expect((await signIn(member.email, GOOD_PASSWORD)).status).toBe(200);
    });

    it('a role that requires two-factor lets an unenrolled member do nothing but enrol', async () => {
      const member = await newMember('lab_ops');
      const policies = await bff.get<RolePolicyRecord[]>('/api/role-policies', admin);
      expect(policies.body.map((p) => p.id)).toEqual(['admin', 'coordinator', 'lab_ops', 'reviewer']);
      expect(policies.body.every((p) => p.mfa_required === false)).toBe(true);
      const set = await bff.request<RolePolicyRecord>({ method: 'PUT', url: '/api/role-policies/lab_ops', session: admin, payload: { mfa_required: true } });
      expect(set.body).toEqual({ id: 'lab_ops', role: 'lab_ops', mfa_required: true });
      expect((await bff.request({ method: 'PUT', url: '/api/role-policies/superuser', session: admin, payload: { mfa_required: true } })).status).toBe(404);
      try {
        const first = await signIn(member.email, GOOD_PASSWORD);
        expect(first.status).toBe(200);
        expect(first.body.mfa_enrolment_required).toBe(true);
        const s = sessionOf(first);
        const blocked = await bff.get<{ code: string }>('/api/orders', s);
        expect(blocked.status).toBe(403);
        expect(blocked.body.code).toBe('mfa_enrolment_required');
        expect((await bff.get<SessionAnswer>('/api/auth/me', s)).body.mfa_enrolment_required).toBe(true);

        const { secret } = await enrol(s);
        expect((await confirm(s, currentCode(secret))).status).toBe(200);
        expect((await bff.get('/api/orders', s)).status).not.toBe(403);
        expect((await bff.get<SessionAnswer>('/api/auth/me', s)).body.mfa_enrolment_required).toBeUndefined();
      } finally {
        await bff.request({ method: 'PUT', url: '/api/role-policies/lab_ops', session: admin, payload: { mfa_required: false } });
      }
    });

    it('records enrolment, confirmation, resets and refused codes in the audit trail', async () => {
      const events = await bff.get<{ action: string; resource: string; outcome: string; detail: Record<string, unknown> }[]>(
        `/api/audit-events${listQuery({ range: [0, 499] })}`,
        admin,
      );
      const seen = (action: string, resource: string, outcome = 'ok') => events.body.some((e) => e.action === action && e.resource === resource && e.outcome === outcome);
      expect(seen('mfa_enrol', 'auth')).toBe(true);
      expect(seen('mfa_confirm', 'auth')).toBe(true);
      expect(seen('mfa_confirm', 'auth', 'failed')).toBe(true);
      expect(seen('mfa_reset', 'staff')).toBe(true);
      expect(seen('update', 'role_policies')).toBe(true);
      expect(events.body.some((e) => e.action === 'login' && e.outcome === 'denied' && e.detail.reason === 'mfa_code_wrong')).toBe(true);
      expect(JSON.stringify(events.body)).not.toMatch(/otpauth|secret=/);
    });
  });
});

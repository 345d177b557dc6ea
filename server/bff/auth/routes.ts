import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, LoginBody, MfaConfirmBody, MfaEnrolment, SessionAnswer } from '../api';
import { sessions, staff } from '../db/schema';
import { BffError, unauthenticated } from '../errors';
import { acceptedStep, newMfaSecret } from './mfa';
import { dummyHashPromise, verifyPassword } from './passwords';
import { clearSessionCookie, requireSession, setSessionCookie } from './plugin';
import { endSession, startSession, type SessionPolicy } from './sessions';
import { claimMfaStep, findStaff, findStaffByEmail, noteSignIn, roleRequiresMfa } from './staff';
import { activeLock, countAttempt, forgiveAttempt, lockMessage, type Lock, type ThrottlePolicy } from './throttle';

export interface AuthRoutesOptions {
  policy: SessionPolicy;
  throttle: ThrottlePolicy;
}

const WRONG_CREDENTIALS = 'Wrong email or password';
const locked = (lock: Lock) => new BffError(429, lockMessage(lock), undefined, 'sign_in_locked').withRetryAfter(lock.retryAfterSeconds);

export function authRoutes(opts: AuthRoutesOptions): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.bffDb;


    app.post('/login', {
      schema: { operationId: 'signIn', tags: ['auth'], security: [], body: LoginBody, response: { 200: SessionAnswer, '4XX': ErrorBody } },
      config: { audit: { resource: 'auth', action: 'login' } },
      handler: async (req, reply) => {
        const { email, password, code } = req.body;
        const lock = await activeLock(db, email, req.ip);
        if (lock) {
          req.auditNote.detail = { reason: 'throttled', scope: lock.scope };
          const member = await findStaffByEmail(db, email);
          if (member) req.auditNote.who = { id: member.id, email: member.email, role: member.role };
          throw locked(lock);
        }
        // The attempt counts before anything is checked: parallel attempts cannot outrun the lock.
        const attempt = await countAttempt(db, email, req.ip, opts.throttle);
        if (attempt.refused) {
          req.auditNote.detail = { reason: 'throttled', scope: attempt.refused.scope };
          const member = await findStaffByEmail(db, email);
          if (member) req.auditNote.who = { id: member.id, email: member.email, role: member.role };
          throw locked(attempt.refused);
        }
        /** A failed check: the lock this attempt reached, if any, is what the member reads. */
        const refuse = (error: BffError): never => {
          throw attempt.lock ? locked(attempt.lock) : error;
        };
        const member = await findStaffByEmail(db, email);
        // Check a password even for unknown e-mails, so timing does not reveal who has an account.
        const ok = await verifyPassword(password, member?.passwordHash ?? (await dummyHashPromise));
        if (member) req.auditNote.who = { id: member.id, email: member.email, role: member.role };
        if (!member || !ok || member.disabledAt) {
          req.auditNote.detail = { reason: !member ? 'unknown_email' : !ok ? 'wrong_password' : 'disabled' };
          return refuse(new BffError(401, WRONG_CREDENTIALS));
        }
        if (member.mfaSecret) {
          if (!code) {
            // The password was right: the second step is asked for, and nothing counts as failed.
            req.auditNote.detail = { reason: 'mfa_code_missing' };
            await forgiveAttempt(db, email, req.ip);
            throw new BffError(401, 'Enter the 6-digit code from your authenticator app', { code: 'Enter the 6-digit code' }, 'mfa_required');
          }
          const digits = code.replace(/\s+/g, '');
          const accepted = /^\d{6}$/.test(digits) ? acceptedStep(member.mfaSecret, digits, member.mfaLastStep) : null;
          if (accepted === null || !(await claimMfaStep(db, member.id, accepted))) {
            req.auditNote.detail = { reason: 'mfa_code_wrong' };
            return refuse(new BffError(401, 'That code is wrong or was already used; enter the current one', { code: 'Wrong or used code' }, 'mfa_required'));
          }
        }
        await forgiveAttempt(db, email, req.ip);
        await noteSignIn(db, member.id);
        const { token, csrfToken } = await startSession(db, member.id);
        setSessionCookie(reply, token, req.protocol === 'https', Math.floor(opts.policy.absoluteMs / 1000));
        const mfaEnabled = member.mfaSecret !== null;
        const user = { id: member.id, email: member.email, name: member.name, role: member.role, mfa_enabled: mfaEnabled };
        req.auditNote.detail = { mfa: mfaEnabled };
        const enrolmentRequired = !mfaEnabled && (await roleRequiresMfa(db, member.role));
        return { user, csrfToken, ...(enrolmentRequired && { mfa_enrolment_required: true }) };
      },
    });

    app.get('/me', { schema: { operationId: 'getSession', tags: ['auth'], response: { 200: SessionAnswer, '4XX': ErrorBody } } }, async (req) => {
      if (!req.session) throw unauthenticated();
      const { user, csrfToken, mfaEnrolmentRequired } = req.session;
      return { user, csrfToken, ...(mfaEnrolmentRequired && { mfa_enrolment_required: true }) };
    });

    app.post(
      '/logout',
      {
        preValidation: requireSession,
        schema: { operationId: 'signOut', tags: ['auth'], response: { 204: z.void().describe('Signed out'), '4XX': ErrorBody } },
        config: { audit: { resource: 'auth', action: 'logout' } },
      },
      async (req, reply) => {
        await endSession(db, req.session!.tokenHash);
        clearSessionCookie(reply, req.protocol === 'https');
        return reply.status(204).send();
      },
    );

    app.post(
      '/mfa',
      {
        preValidation: requireSession,
        schema: {
          operationId: 'startMfaEnrolment',
          summary: 'Start two-factor enrolment: a new secret to scan, counted once a code from it is confirmed',
          tags: ['auth'],
          response: { 200: MfaEnrolment, '4XX': ErrorBody },
        },
        config: { audit: { resource: 'auth', action: 'mfa_enrol', records: () => [], patients: () => [] } },
      },
      async (req) => {
        const me = req.session!.user;
        const member = await findStaff(db, me.id);
        if (!member) throw unauthenticated();
        if (member.mfaSecret) throw new BffError(409, 'Two-factor is already set up; an admin can reset it if you lost your device');
        const enrolment = newMfaSecret(member.email);
        await db.update(staff).set({ mfaPendingSecret: enrolment.secret }).where(eq(staff.id, member.id));
        req.auditNote.recordIds = [member.id];
        return enrolment;
      },
    );

    app.post(
      '/mfa/confirm',
      {
        preValidation: requireSession,
        schema: {
          operationId: 'confirmMfaEnrolment',
          summary: 'Confirm two-factor with a code from the new secret; sign-in asks for a code from then on',
          tags: ['auth'],
          body: MfaConfirmBody,
          response: { 200: SessionAnswer, '4XX': ErrorBody },
        },
        config: { audit: { resource: 'auth', action: 'mfa_confirm', records: () => [], patients: () => [] } },
      },
      async (req) => {
        const { user, csrfToken } = req.session!;
        req.auditNote.recordIds = [user.id];
        const member = await findStaff(db, user.id);
        if (!member?.mfaPendingSecret) throw new BffError(409, 'Start the set-up first: there is no new secret to confirm');
        const step = acceptedStep(member.mfaPendingSecret, req.body.code, null);
        if (step === null) throw new BffError(422, 'code: that code does not match; check the time on your phone and enter the current code', { code: 'That code does not match' });
        const confirmed = await db.transaction(async (tx) => {
          // Only over no enrolment: a stale secret from another tab never replaces a working one.
          const rows = await tx
            .update(staff)
            .set({ mfaSecret: member.mfaPendingSecret, mfaPendingSecret: null, mfaEnabledAt: new Date(), mfaLastStep: step })
            .where(and(eq(staff.id, member.id), isNull(staff.mfaSecret)))
            .returning({ id: staff.id });
          // Sessions signed in with the password alone end; this one has just proved the second factor.
          if (rows.length) await tx.delete(sessions).where(and(eq(sessions.staffId, member.id), ne(sessions.tokenHash, req.session!.tokenHash)));
          return rows.length > 0;
        });
        if (!confirmed) throw new BffError(409, 'Two-factor is already set up; an admin can reset it if you lost your device');
        return { user: { ...user, mfa_enabled: true }, csrfToken };
      },
    );
  };
}

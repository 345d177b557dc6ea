import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, LoginBody, SessionAnswer } from '../api';
import { BffError, unauthenticated } from '../errors';
import { dummyHashPromise, verifyPassword } from './passwords';
import { clearSessionCookie, requireSession, setSessionCookie } from './plugin';
import { endSession, startSession, type SessionPolicy } from './sessions';
import { findStaffByEmail } from './staff';

export interface AuthRoutesOptions {
  policy: SessionPolicy;
  /** Login attempts per client address per minute. */
  loginAttemptsPerMinute: number;
}

export function authRoutes(opts: AuthRoutesOptions): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/login', {
      schema: { operationId: 'signIn', tags: ['auth'], security: [], body: LoginBody, response: { 200: SessionAnswer, '4XX': ErrorBody } },
      config: {
        audit: { resource: 'auth', action: 'login' },
        rateLimit: {
          max: opts.loginAttemptsPerMinute,
          timeWindow: 60_000,
          errorResponseBuilder: (_req, ctx) => ({
            statusCode: 429,
            message: `Too many sign-in attempts; try again in ${Math.ceil(ctx.ttl / 1000)} seconds`,
          }),
        },
      },
      handler: async (req, reply) => {
        const member = await findStaffByEmail(app.bffDb, req.body.email);
        // Check a password even for unknown e-mails, so timing does not reveal who has an account.
        const ok = await verifyPassword(req.body.password, member?.passwordHash ?? (await dummyHashPromise));
        if (member) req.auditNote.who = { id: member.id, email: member.email, role: member.role };
        if (!member || !ok || member.disabledAt) throw new BffError(401, 'Wrong email or password');
        const { token, csrfToken } = await startSession(app.bffDb, member.id);
        setSessionCookie(reply, token, req.protocol === 'https', Math.floor(opts.policy.absoluteMs / 1000));
        const user = { id: member.id, email: member.email, name: member.name, role: member.role };
        return { user, csrfToken };
      },
    });

    app.get('/me', { schema: { operationId: 'getSession', tags: ['auth'], response: { 200: SessionAnswer, '4XX': ErrorBody } } }, async (req) => {
      if (!req.session) throw unauthenticated();
      return { user: req.session.user, csrfToken: req.session.csrfToken };
    });

    app.post(
      '/logout',
      {
        preValidation: requireSession,
        schema: { operationId: 'signOut', tags: ['auth'], response: { 204: z.void().describe('Signed out'), '4XX': ErrorBody } },
        config: { audit: { resource: 'auth', action: 'logout' } },
      },
      async (req, reply) => {
      await endSession(app.bffDb, req.session!.tokenHash);
      clearSessionCookie(reply, req.protocol === 'https');
      return reply.status(204).send();
      },
    );
  };
}

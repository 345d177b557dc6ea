import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../audit/audit';
import { BffError, unauthenticated } from '../errors';
import { dummyHashPromise, verifyPassword } from './passwords';
import { clearSessionCookie, requireSession, setSessionCookie } from './plugin';
import { endSession, startSession, type SessionPolicy } from './sessions';
import { findStaffByEmail } from './staff';

const LoginBody = z.object({
  email: z.string().trim().min(1, 'Enter your email').max(320),
  password: z.string().min(1, 'Enter your password').max(1024),
});

export interface AuthRoutesOptions {
  policy: SessionPolicy;
  /** Login attempts per client address per minute. */
  loginAttemptsPerMinute: number;
}

export function authRoutes(opts: AuthRoutesOptions): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/login', {
      schema: { body: LoginBody },
      config: {
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
        if (!member || !ok || member.disabledAt) {
          await audit(app.bffDb, req, { action: 'login', resource: 'auth', outcome: 'denied', statusCode: 401 }, member ? { id: member.id, email: member.email } : undefined);
          throw new BffError(401, 'Wrong email or password');
        }
        const { token, csrfToken } = await startSession(app.bffDb, member.id);
        setSessionCookie(reply, token, req.protocol === 'https', Math.floor(opts.policy.absoluteMs / 1000));
        const user = { id: member.id, email: member.email, name: member.name, role: member.role };
        await audit(app.bffDb, req, { action: 'login', resource: 'auth' }, user);
        return { user, csrfToken };
      },
    });

    app.get('/me', async (req) => {
      if (!req.session) throw unauthenticated();
      return { user: req.session.user, csrfToken: req.session.csrfToken };
    });

    app.post('/logout', { preValidation: requireSession }, async (req, reply) => {
      await endSession(app.bffDb, req.session!.tokenHash);
      await audit(app.bffDb, req, { action: 'logout', resource: 'auth' });
      clearSessionCookie(reply, req.protocol === 'https');
      return reply.status(204).send();
    });
  };
}

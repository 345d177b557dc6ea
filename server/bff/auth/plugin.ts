import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import { BffError, forbidden, unauthenticated } from '../errors';
import { can, type Permission } from '../api/roles';
import { SESSION_PROBE_HEADER } from '../api/auth';
import type { Notifications } from '../../store/notify';
import { LiveSessions } from './liveSessions';
import type { ActiveSession, SessionPolicy } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    session: ActiveSession | null;
  }
}

/**
 * Over https the cookie is `__Host-`-prefixed: browsers then accept it only with Secure, Path=/
 * and no Domain, so no subdomain or plain-http page can plant or overwrite it.
 */
export const SESSION_COOKIE = 'labdesk_session';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const cookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthPluginOptions {
  sessionSecret: string;
  policy: SessionPolicy;
  /** The store's LISTEN/NOTIFY: with it, sessions are cached in the process. */
  notifications?: Notifications;
}

/** Reads the session cookie into `request.session` (null without a live session). */
async function authPlugin(app: FastifyInstance, opts: AuthPluginOptions) {
  await app.register(cookie, { secret: opts.sessionSecret });
  app.decorateRequest('session', null);
  const live = await LiveSessions.create({
    db: app.bffDb,
    policy: opts.policy,
    notifications: opts.notifications,
    onSlideError: (err) => app.log.warn(`sessions: writing idle timers failed: ${err instanceof Error ? err.message : String(err)}`),
  });
  app.addHook('onClose', async () => live.close());
  app.addHook('onRequest', async (req) => {
    const raw = req.cookies[cookieName(req.protocol === 'https')];
    if (!raw) return;
    const unsigned = req.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return;
    // The dashboard's session watch asks "still signed in?" without counting as activity: an
    // unattended open tab must still reach the idle timeout.
    req.session = await live.touch(unsigned.value, new Date(), req.headers[SESSION_PROBE_HEADER] === undefined);
  });
}
export default fp(authPlugin, { name: 'auth', dependencies: ['bff-db'] });

function sameToken(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** For every resource route: a live session, and the CSRF header on anything that changes state. */
export async function requireSession(req: FastifyRequest, _reply: FastifyReply) {
  if (!req.session) throw unauthenticated();
  if (!SAFE_METHODS.has(req.method)) {
    const given = req.headers[CSRF_HEADER];
    if (typeof given !== 'string' || !sameToken(given, req.session.csrfToken)) {
      throw new BffError(403, 'Missing or invalid CSRF token; reload the page and try again');
    }
  }
}

/** Staff whose role requires two-factor and who have not set it up may only enrol (and sign out). */
export async function requireMfaEnrolment(req: FastifyRequest) {
  if (req.session?.mfaEnrolmentRequired) {
    throw new BffError(403, 'Your role requires two-factor sign-in: set it up on your account page first', undefined, 'mfa_enrolment_required');
  }
}

/** A route's permission check; it names its permission so the route table can be read (docs, tests). */
export function requirePermission(permission: Permission, what: string) {
  const check = async (req: FastifyRequest) => {
    if (!req.session) throw unauthenticated();
    if (!can(req.session.user.role, permission)) throw forbidden(what);
  };
  return Object.assign(check, { permission });
}

/** The permission a route's `preValidation` checks, if any. */
export function permissionOf(preValidation: unknown): Permission | null {
  for (const hook of [preValidation].flat()) {
    if (typeof hook === 'function' && 'permission' in hook) return hook.permission as Permission;
  }
  return null;
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean, maxAgeSeconds: number) {
  reply.setCookie(cookieName(secure), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    signed: true,
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(cookieName(secure), { httpOnly: true, sameSite: 'strict', secure, path: '/' });
}

/**
 * Sign-in against the BFF (`/api/auth/*`, see docs/bff-api.md).
 *
 * The session is an HttpOnly cookie, so "am I signed in?" can only be answered by the BFF:
 * after a reload we ask `GET /api/auth/me`, which also hands back the CSRF token we forgot.
 */
import type { AuthProvider, UserIdentity } from 'react-admin';
import { forgetSession, getCsrfToken, getCurrentUser, isMfaEnrolmentRequired, rememberSession } from './session';
import type { ErrorBody } from '../../server/bff/api/errors';
import type { SessionAnswer, StaffUser } from './types';
import { CSRF_HEADER } from '../../server/bff/api/constants';

export const SIGN_IN_MESSAGES = {
  wrongCredentials: 'Wrong email or password',
  rateLimited: 'Too many failed sign-ins. Wait a while and try again.',
  codeNeeded: 'Enter the 6-digit code from your authenticator app',
  unreachable: 'Could not reach the server. Check your connection and try again.',
  sessionEnded: 'Your session has ended. Please sign in again.',
} as const;

/** The password was right and the account has two-factor on: the sign-in page asks for the code. */
export class MfaRequiredError extends Error {}

/** Where a member whose role requires two-factor goes until they have set it up. */
export const ACCOUNT_PATH = '/account';

const sameOrigin = { credentials: 'same-origin' } as const;

async function readBody(response: Response): Promise<ErrorBody | undefined> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body as ErrorBody;
  } catch {
    // not JSON: the caller falls back to its own sentence
  }
  return undefined;
}
const readMessage = async (response: Response) => (await readBody(response))?.message;

/** The live session, or null when the cookie is missing or expired. */
async function fetchSession(): Promise<SessionAnswer | null> {
  const response = await fetch('/api/auth/me', { ...sameOrigin, headers: { Accept: 'application/json' } });
  if (response.status === 401) return null;
  if (!response.ok) throw new Error((await readMessage(response)) ?? `Sign-in check failed (HTTP ${response.status})`);
  return (await response.json()) as SessionAnswer;
}

// The one `GET /api/auth/me` in flight: react-admin asks checkAuth, getPermissions and getIdentity
// at once on a cold load, and each used to send its own.
let sessionCheck: Promise<StaffUser | null> | null = null;

/** The user from memory, else from the BFF (after a reload). Null when nobody is signed in. */
function ensureUser(): Promise<StaffUser | null> {
  const known = getCurrentUser();
  if (known && getCsrfToken()) return Promise.resolve(known);
  sessionCheck ??= (async () => {
    try {
      const session = await fetchSession();
      if (!session) {
        forgetSession();
        return null;
      }
      rememberSession(session.user, session.csrfToken, session.mfa_enrolment_required);
      return session.user;
    } finally {
      sessionCheck = null;
    }
  })();
  return sessionCheck;
}

/**
 * Asks the BFF who is signed in before React has rendered anything (main.tsx), so the answer is on
 * its way while the shell's JavaScript runs; react-admin's own checkAuth then shares it.
 */
export function startSessionCheck(): void {
  ensureUser().catch(() => {
    // checkAuth asks again and shows the failure
  });
}

// `message: false` tells react-admin to go to the login page without an error toast: having no
// session on first visit is normal, not a failure worth shouting about.
const notSignedIn = { message: false } as const;

export const authProvider: AuthProvider = {
  async login(params: { email?: string; username?: string; password?: string; code?: string }) {
    // Our Login page sends `email`; react-admin's stock LoginForm sends `username`.
    const email = params.email ?? params.username ?? '';
    let response: Response;
    try {
      response = await fetch('/api/auth/login', {
        ...sameOrigin,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email, password: params.password ?? '', ...(params.code && { code: params.code }) }),
      });
    } catch {
      throw new Error(SIGN_IN_MESSAGES.unreachable);
    }
    if (response.status === 401) {
      const body = await readBody(response);
      if (body?.mfa_required) throw new MfaRequiredError(params.code ? body.message : SIGN_IN_MESSAGES.codeNeeded);
      throw new Error(SIGN_IN_MESSAGES.wrongCredentials);
    }
    // The BFF says how long to wait, and whether the account or the network is locked.
    if (response.status === 429) throw new Error((await readMessage(response)) ?? SIGN_IN_MESSAGES.rateLimited);
    if (!response.ok) {
      throw new Error((await readMessage(response)) ?? `Sign-in failed (HTTP ${response.status})`);
    }
    const session = (await response.json()) as SessionAnswer;
    rememberSession(session.user, session.csrfToken, session.mfa_enrolment_required);
    if (isMfaEnrolmentRequired()) return { redirectTo: ACCOUNT_PATH };
    return undefined;
  },

  async logout() {
    const token = getCsrfToken();
    forgetSession();
    // Without a token there is no live session to end (never signed in, or the BFF already said 401).
    if (!token) return;
    try {
      await fetch('/api/auth/logout', { ...sameOrigin, method: 'POST', headers: { [CSRF_HEADER]: token } });
    } catch {
      // Signing out locally still matters when the network is down; the cookie expires on its own.
    }
  },

  async checkAuth() {
    if (!(await ensureUser())) throw notSignedIn;
  },

  async checkError(error: { status?: number; body?: { code?: string } }) {
    // 401: the session is gone, so sign out. 403: signed in but not allowed; stay and show the error,
    // unless the role requires two-factor first: then the account page, to set it up.
    if (error?.status === 401) {
      forgetSession();
      throw { message: SIGN_IN_MESSAGES.sessionEnded };
    }
    if (error?.status === 403 && error.body?.code === 'mfa_enrolment_required') {
      throw { logoutUser: false, redirectTo: ACCOUNT_PATH, message: false };
    }
  },

  async getPermissions() {
    // No permissions before sign-in (rather than an error), so the sign-in page can render.
    const user = await ensureUser();
    return user?.role ?? null;
  },

  async getIdentity(): Promise<UserIdentity> {
    const user = await ensureUser();
    if (!user) throw notSignedIn;
    return { id: user.id, fullName: user.name || user.email };
  },
};

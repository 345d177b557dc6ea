import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_PATH, authProvider, MfaRequiredError, SIGN_IN_MESSAGES } from './authProvider';
import { forgetSession, getCsrfToken, isMfaEnrolmentRequired } from './session';

const staff = { id: 's1', email: 'ada@labdesk.test', name: '', role: 'coordinator' };

/** A tiny BFF sign-in: `answers` maps "METHOD /path" to [status, body]. */
function bff(answers: Record<string, [number, unknown?]>) {
  const calls: { key: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url}`;
      calls.push({ key, init });
      const [status, body] = answers[key] ?? [404, { message: 'no route' }];
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
  return calls;
}

beforeEach(() => forgetSession());
afterEach(() => vi.unstubAllGlobals());

describe('authProvider', () => {
  it('signs in with the email (or react-admin\'s username) and keeps the CSRF token in memory', async () => {
    const calls = bff({ 'POST /api/auth/login': [200, { user: staff, csrfToken: 'tok' }] });
    await authProvider.login({ username: staff.email, password: 'pw' });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ email: staff.email, password: 'pw' });
    expect(calls[0]?.init.credentials).toBe('same-origin');
    expect(getCsrfToken()).toBe('tok');
  });

  it.each([
    [401, { message: 'whatever the BFF said' }, SIGN_IN_MESSAGES.wrongCredentials],
    // A locked account: the BFF says for how long, and that is what the member needs to read.
    [429, { message: 'Too many failed sign-ins for this account. Try again in 15 minutes.' }, 'Try again in 15 minutes'],
    [429, 'not json', SIGN_IN_MESSAGES.rateLimited],
  ])('explains a %i from sign-in', async (status, body, message) => {
    bff({ 'POST /api/auth/login': [status, body] });
    await expect(authProvider.login({ email: staff.email, password: 'x' })).rejects.toThrow(message);
    expect(getCsrfToken()).toBeNull();
  });

  it('asks for the two-factor code when the BFF says the password was right but a code is needed', async () => {
    const calls = bff({ 'POST /api/auth/login': [401, { message: 'Enter the 6-digit code', code: 'mfa_required', mfa_required: true }] });
    const first = authProvider.login({ email: staff.email, password: 'pw' });
    await expect(first).rejects.toBeInstanceOf(MfaRequiredError);
    await expect(first).rejects.toThrow(SIGN_IN_MESSAGES.codeNeeded);
    // With a code that is refused, the BFF's reason is shown.
    bff({ 'POST /api/auth/login': [401, { message: 'That code is wrong or was already used', code: 'mfa_required', mfa_required: true }] });
    await expect(authProvider.login({ email: staff.email, password: 'pw', code: '123456' })).rejects.toThrow('already used');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ email: staff.email, password: 'pw' });
    expect(getCsrfToken()).toBeNull();
  });

  it('sends a member whose role requires two-factor to the account page after sign-in, and back there on a 403 asking for it', async () => {
    bff({ 'POST /api/auth/login': [200, { user: { ...staff, mfa_enabled: false }, csrfToken: 'tok', mfa_enrolment_required: true }] });
    await expect(authProvider.login({ email: staff.email, password: 'pw' })).resolves.toEqual({ redirectTo: ACCOUNT_PATH });
    expect(isMfaEnrolmentRequired()).toBe(true);
    await expect(authProvider.checkError({ status: 403, body: { code: 'mfa_enrolment_required' } } as never)).rejects.toMatchObject({ logoutUser: false, redirectTo: ACCOUNT_PATH });
    // Any other 403 keeps the member where they are.
    await expect(authProvider.checkError({ status: 403, body: { code: 'other' } } as never)).resolves.toBeUndefined();
  });

  it('after a reload, re-reads the session and CSRF token from /api/auth/me', async () => {
    bff({ 'GET /api/auth/me': [200, { user: staff, csrfToken: 'fresh' }] });
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    expect(getCsrfToken()).toBe('fresh');
    // An empty name falls back to the e-mail address.
    await expect(authProvider.getIdentity?.()).resolves.toEqual({ id: 's1', fullName: staff.email });
    await expect(authProvider.getPermissions?.({})).resolves.toBe('coordinator');
  });

  it('sends the user to the login page, quietly, when there is no session', async () => {
    bff({ 'GET /api/auth/me': [401, { message: 'Not signed in' }] });
    await expect(authProvider.checkAuth({})).rejects.toEqual({ message: false });
  });

  it('signs out on 401 but not on 403', async () => {
    await expect(authProvider.checkError({ status: 401 })).rejects.toBeDefined();
    await expect(authProvider.checkError({ status: 403 })).resolves.toBeUndefined();
    await expect(authProvider.checkError({ status: 500 })).resolves.toBeUndefined();
  });

  it('signs out with the CSRF token, and forgets it', async () => {
    const calls = bff({ 'POST /api/auth/login': [200, { user: staff, csrfToken: 'tok' }], 'POST /api/auth/logout': [204] });
    await authProvider.login({ email: staff.email, password: 'pw' });
    await authProvider.logout({});
    const logout = calls.find((c) => c.key === 'POST /api/auth/logout');
    expect(new Headers(logout?.init.headers).get('x-csrf-token')).toBe('tok');
    expect(getCsrfToken()).toBeNull();
  });
});

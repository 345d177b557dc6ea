/**
 * Signing in and out, on the real stack: the real BFF checks the password, sets the HttpOnly
 * session cookie, asks for the CSRF token on sign-out, throttles failed sign-ins and asks for the
 * two-factor code where it is on.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderOnStack, signIn } from './renderApp';
import { eq } from 'drizzle-orm';
import { currentCode } from '../../server/bff/auth/mfa';
import { createStaff } from '../../server/bff/auth/staff';
import { DEFAULT_THROTTLE_POLICY } from '../../server/bff/auth/throttle';
import { staff as staffTable } from '../../server/bff/db/schema';
import { STAFF_PASSWORD, staffEmail, startRealStack, type RealStack } from './realStack';

let stack: RealStack;
const ADMIN_EMAIL = staffEmail('admin');
const MEMBER_PASSWORD = 'violet kettle marching upstream';

beforeAll(async () => {
  stack = await startRealStack();
  await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-7f3a2c91' }]);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

describe('signing in', () => {
  it('asks for an email and password on first visit', async () => {
    renderOnStack(stack);
    expect(await screen.findByRole('heading', { name: 'Sign in to Labdesk' })).toBeInTheDocument();
    expect(screen.getByLabelText(/email/i)).toHaveAttribute('type', 'email');
  });

  it('says so when the password is wrong, and stays on the sign-in page', async () => {
    const { user } = renderOnStack(stack);
    await signIn(user, ADMIN_EMAIL, 'not the password');

    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password');
    expect(screen.getByRole('heading', { name: 'Sign in to Labdesk' })).toBeInTheDocument();
    expect(stack.requests.find((r) => r.path === '/api/auth/login')?.body).toEqual({ email: ADMIN_EMAIL, password: 'not the password' });
  });

  it('says how long to wait once the account is locked after repeated failures', async () => {
    // The real throttle, strict as in production: five failures lock the account for 15 minutes.
    const strict = await stack.bff.buildApp({ signInThrottle: DEFAULT_THROTTLE_POLICY });
    stack.useBffApp(strict);
    const email = 'locked.out@labdesk.test';
    await createStaff(stack.bff.db, { email, name: 'Locked Out', role: 'coordinator', password: MEMBER_PASSWORD });
    for (let i = 0; i < 5; i++) {
      await strict.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: `wrong guess ${i}` }, remoteAddress: `127.0.4.${i + 1}` });
    }
    const { user } = renderOnStack(stack);
    await signIn(user, email, MEMBER_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed sign-ins for this account. Try again in 15 minutes');
    expect(screen.getByRole('heading', { name: 'Sign in to Labdesk' })).toBeInTheDocument();
    stack.useBffApp(null);
  });

  it('asks for the authenticator code when two-factor is on, and signs in with it', async () => {
    const email = 'two.factor@labdesk.test';
    const member = await createStaff(stack.bff.db, { email, name: 'Two Factor', role: 'coordinator', password: MEMBER_PASSWORD });
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await stack.bff.db.update(staffTable).set({ mfaSecret: secret, mfaEnabledAt: new Date() }).where(eq(staffTable.id, member.id));

    const { user } = renderOnStack(stack);
    await signIn(user, email, MEMBER_PASSWORD);
    const codeField = await screen.findByLabelText(/authentication code/i);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(codeField, '000000' === currentCode(secret) ? '111111' : '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/wrong or was already used/);

    await user.clear(screen.getByLabelText(/authentication code/i));
    await user.type(screen.getByLabelText(/authentication code/i), currentCode(secret));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'What needs you' })).toBeInTheDocument();
    const logins = stack.requests.filter((r) => r.path === '/api/auth/login').map((r) => r.body as { code?: string });
    expect(logins.map((b) => b.code === undefined)).toEqual([true, false, false]);
  });

  it('signs in, shows who is signed in, and signs out with the CSRF token', async () => {
    const { user } = renderOnStack(stack);
    await signIn(user, ADMIN_EMAIL, STAFF_PASSWORD);

    expect(await screen.findByRole('heading', { name: 'What needs you' })).toBeInTheDocument();
    expect(await screen.findByText('Test admin')).toBeInTheDocument();
    const login = stack.requests.find((r) => r.path === '/api/auth/login');
    const cookieBeforeSignOut = stack.cookie();
    expect(cookieBeforeSignOut).toMatch(/labdesk_session=/);
    await user.click(await screen.findByRole('button', { name: /profile|test admin/i }));
    const menu = await screen.findByRole('menu');
    await user.click(within(menu).getByText('Logout'));

    expect(await screen.findByRole('heading', { name: 'Sign in to Labdesk' })).toBeInTheDocument();
    const logout = stack.requests.find((r) => r.path === '/api/auth/logout');
    expect(logout?.method).toBe('POST');
    expect(logout?.headers.get('x-csrf-token')).toBeTruthy();
    expect(login).toBeTruthy();
    // The session is over on the server: the cookie the browser had opens nothing any more.
    expect(stack.cookie()).toBe('');
    const me = await stack.bff.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: cookieBeforeSignOut } });
    expect(me.statusCode).toBe(401);
  });

  it('after a reload, picks the session up from /api/auth/me without asking again', async () => {
    await stack.signInAs('admin');
    renderOnStack(stack);
    expect(await screen.findByRole('heading', { name: 'What needs you' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in to Labdesk' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Test admin')).toBeInTheDocument());
  });

  it('sends someone already signed in from the sign-in page straight to the dashboard', async () => {
    await stack.signInAs('admin');
    renderOnStack(stack, '/login');
    expect(await screen.findByRole('heading', { name: 'What needs you' })).toBeInTheDocument();
  });
});

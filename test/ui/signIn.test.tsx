/**
 * Signing in and out, on the real stack: the real BFF checks the password, sets the HttpOnly
 * session cookie, asks for the CSRF token on sign-out and rate-limits sign-in.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderOnStack, signIn } from './renderApp';
import { failNext, STAFF_PASSWORD, staffEmail, startRealStack, type RealStack } from './realStack';

let stack: RealStack;
const ADMIN_EMAIL = staffEmail('admin');

beforeAll(async () => {
  stack = await startRealStack();
  await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-7f3a2c91' }]);
}, 60_000);
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

  it('tells the user to wait when sign-in is rate-limited', async () => {
    // The BFF's own 429 (its limiter counts per address and minute; the canned answer is its shape).
    failNext(stack, 'post', '/api/auth/login', 429, { message: 'Too many sign-in attempts; try again in 60 seconds' });
    const { user } = renderOnStack(stack);
    await signIn(user, ADMIN_EMAIL, STAFF_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts, wait a minute');
  });

  it('signs in, shows who is signed in, and signs out with the CSRF token', async () => {
    const { user } = renderOnStack(stack);
    await signIn(user, ADMIN_EMAIL, STAFF_PASSWORD);

    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
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
    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in to Labdesk' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Test admin')).toBeInTheDocument());
  });

  it('sends someone already signed in from the sign-in page straight to the dashboard', async () => {
    await stack.signInAs('admin');
    renderOnStack(stack, '/login');
    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN, CSRF_TOKEN, SAMPLE_USERS } from './fakeBff';
import { renderApp, signIn } from './renderApp';

describe('signing in', () => {
  it('asks for an email and password on first visit', async () => {
    renderApp({ users: SAMPLE_USERS });
    expect(await screen.findByRole('heading', { name: 'Sign in to Labdesk' })).toBeInTheDocument();
    expect(screen.getByLabelText(/email/i)).toHaveAttribute('type', 'email');
  });

  it('says so when the password is wrong, and stays on the sign-in page', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS });
    await signIn(user, ADMIN.email, 'not the password');

    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password');
    expect(screen.getByRole('heading', { name: 'Sign in to Labdesk' })).toBeInTheDocument();
    expect(bff.requests.find((r) => r.path === '/api/auth/login')?.body).toEqual({
      email: ADMIN.email,
      password: 'not the password',
    });
  });

  it('tells the user to wait when sign-in is rate-limited', async () => {
    const { user } = renderApp({ rateLimited: true });
    await signIn(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts, wait a minute');
  });

  it('signs in, shows who is signed in, and signs out with the CSRF token', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS });
    await signIn(user);

    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(await screen.findByText('Ada Admin')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /profile|ada admin/i }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Logout')).toBeInTheDocument();
    await user.click(within(menu).getByText('Logout'));

    expect(await screen.findByRole('heading', { name: 'Sign in to Labdesk' })).toBeInTheDocument();
    const logout = bff.requests.find((r) => r.path === '/api/auth/logout');
    expect(logout?.method).toBe('POST');
    expect(logout?.headers.get('x-csrf-token')).toBe(CSRF_TOKEN);
    expect(bff.state.session).toBeNull();
  });

  it('after a reload, picks the session up from /api/auth/me without asking again', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true });
    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in to Labdesk' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Ada Admin')).toBeInTheDocument());
  });

  it('sends someone already signed in from the sign-in page straight to the dashboard', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true }, '/login');
    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
  });
});

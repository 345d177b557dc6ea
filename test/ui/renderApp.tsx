/** Renders the real dashboard against a fresh fake BFF, as a first visit to the site would. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { App } from '../../src/App';
import { forgetSession } from '../../src/providers/session';
import { ADMIN, createFakeBff, type FakeBffOptions } from './fakeBff';
import type { RealStack } from './realStack';

export function renderApp(options: FakeBffOptions = {}, path = '/') {
  const bff = createFakeBff(options);
  vi.stubGlobal('fetch', bff.fetch);
  // A fresh "browser tab": no CSRF token in memory, no stored list preferences, at the given URL.
  forgetSession();
  localStorage.clear();
  window.history.replaceState(null, '', path === '/' ? '/' : `/#${path}`);
  const user = userEvent.setup();
  render(<App />);
  return { bff, user };
}

export async function signIn(user: ReturnType<typeof userEvent.setup>, email = ADMIN.email, password = ADMIN.password) {
  await user.type(await screen.findByLabelText(/email/i), email);
  await user.type(screen.getByLabelText(/password/i), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

/**
 * Renders the real dashboard against the real stack (test/ui/realStack.ts), as a fresh tab would
 * open it: no session unless the test signed in first (`stack.signInAs`), no stored preferences.
 */
export function renderOnStack(stack: RealStack, path = '/') {
  forgetSession();
  localStorage.clear();
  window.history.replaceState(null, '', path === '/' ? '/' : `/#${path}`);
  const user = userEvent.setup();
  render(<App />);
  return { user };
}

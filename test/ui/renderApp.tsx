/** Renders the real dashboard for page tests: always against the real stack (test/ui/realStack.ts). */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../src/App';
import { forgetSession } from '../../src/providers/session';
import type { RealStack } from './realStack';

type User = ReturnType<typeof userEvent.setup>;

/**
 * Enters a whole value into a field at once, as pasting it (or a password manager) would: the field
 * is clicked and gets one input event, which goes through its own handling (react-admin's form and
 * validation) like a keystroke does. For where typing itself is not what a test checks: in jsdom
 * every keystroke re-renders the form, which costs CPU time and says nothing more.
 */
export async function fill(user: User, field: HTMLElement, value: string) {
  await user.click(field);
  await user.paste(value);
}

/** Signs in through the sign-in page, the e-mail and password entered as a password manager would. */
export async function signIn(user: User, email: string, password: string) {
  await fill(user, await screen.findByLabelText(/email/i), email);
  await fill(user, screen.getByLabelText(/password/i), password);
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

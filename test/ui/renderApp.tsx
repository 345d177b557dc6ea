/** Renders the real dashboard for page tests: always against the real stack (test/ui/realStack.ts). */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../src/App';
import { forgetSession } from '../../src/providers/session';
import type { RealStack } from './realStack';

/** Signs in through the sign-in page, as a person types. */
export async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
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

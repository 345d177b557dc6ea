/** What each role sees, on the real stack: staff of every role exist in the real BFF's store. */
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';

let stack: RealStack;
beforeAll(async () => {
  stack = await startRealStack();
  await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-7f3a2c91', sources: ['oura'] }]);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

describe('what each role sees', () => {
  it('shows admins the audit trail in the menu', async () => {
    await stack.signInAs('admin');
    renderOnStack(stack);
    expect(await screen.findByRole('menuitem', { name: /audit trail/i })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /users/i })).toBeInTheDocument();
  });

  it('shows lab operations the patient page without wearable health data or the audit trail', async () => {
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, '/users');
    await user.click(await screen.findByText('pt-7f3a2c91'));
    // The patient page opens on its Profile tab (the profile card has the same title).
    expect(await screen.findByRole('tab', { name: 'Profile', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Mindfulness minutes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /audit trail/i })).not.toBeInTheDocument();
    expect(stack.requests.some((r) => r.path.endsWith('/mindfulness-minutes'))).toBe(false);
  });

  it('gives a role this dashboard does not know no resources', async () => {
    await stack.signInAs('unknown');
    renderOnStack(stack);
    // Signed in (the app bar names them), yet nothing to open.
    expect(await screen.findByText('Unknown role')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: /users/i })).not.toBeInTheDocument());
    expect(screen.queryByText('pt-7f3a2c91')).not.toBeInTheDocument();
  });
});

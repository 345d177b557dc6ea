import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN, SAMPLE_USERS, type StaffAccount } from './fakeBff';
import { renderApp } from './renderApp';

const account = (role: string): StaffAccount => ({
  email: `${role}@labdesk.test`,
  password: 'a long enough password',
  user: { id: `staff-${role}`, email: `${role}@labdesk.test`, name: role, role },
});

describe('what each role sees', () => {
  it('shows admins the audit trail in the menu', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [ADMIN] });
    expect(await screen.findByRole('menuitem', { name: /audit trail/i })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /users/i })).toBeInTheDocument();
  });

  it('shows lab operations the patient page without wearable health data or the audit trail', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [account('lab_ops')] });
    await user.click(await screen.findByText('pt-7f3a2c91'));
    expect(await screen.findByText('Profile')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Mindfulness minutes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /audit trail/i })).not.toBeInTheDocument();
    expect(bff.requests.some((r) => r.path.endsWith('/mindfulness-minutes'))).toBe(false);
  });

  it('gives an unknown role no resources', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [account('visitor')] });
    // Signed in (the app bar names them), yet nothing to open.
    expect(await screen.findByText('visitor')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: /users/i })).not.toBeInTheDocument());
    expect(screen.queryByText('pt-7f3a2c91')).not.toBeInTheDocument();
  });
});

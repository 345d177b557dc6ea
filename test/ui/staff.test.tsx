/**
 * Staff and access pages on the real stack: an admin adds and changes staff members, sets the
 * two-factor rules, checks the audit trail; a member sets up two-factor on their account page; a
 * reviewer lands on the review queue. Every answer is the real BFF's.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { currentCode } from '../../server/bff/auth/mfa';
import { createStaff, findStaffByEmail } from '../../server/bff/auth/staff';
import { renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';

let stack: RealStack;
beforeAll(async () => {
  stack = await startRealStack();
  await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-7f3a2c91' }]);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

const signInViaBff = (email: string, password: string, code?: string) =>
  stack.bff.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, ...(code && { code }) } });

describe('the Staff page (admins)', () => {
  it('adds a member with a generated password shown once, which signs them in with the role chosen', async () => {
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, '/staff');
    expect(await screen.findByText('admin@labdesk.test')).toBeInTheDocument();
    // The two-factor rules sit beside the list, one switch per role.
    expect(await screen.findByRole('switch', { name: 'Parser reviewer' })).not.toBeChecked();

    await user.click(screen.getByRole('link', { name: /add staff member/i }));
    await user.type(await screen.findByLabelText(/e-mail/i), 'Rosalind.Franklin@labdesk.test');
    await user.type(screen.getByLabelText(/^name/i), 'Rosalind Franklin');
    await user.click(screen.getByLabelText(/^role/i));
    await user.click(await screen.findByRole('option', { name: 'Parser reviewer' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: /password for rosalind.franklin@labdesk.test/i });
    const password = within(dialog).getByTestId('generated-password').textContent!;
    expect(password).toMatch(/^[a-z2-9AB]{4}(-[a-z2-9AB]{4}){4}$/);
    const created = stack.requests.find((r) => r.method === 'POST' && r.path === '/api/staff');
    expect(created?.body).toEqual({ email: 'Rosalind.Franklin@labdesk.test', name: 'Rosalind Franklin', role: 'reviewer', password });
    const signedIn = await signInViaBff('rosalind.franklin@labdesk.test', password);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.role).toBe('reviewer');

    await user.click(within(dialog).getByRole('button', { name: 'I have passed it on' }));
    expect(await screen.findByText('rosalind.franklin@labdesk.test')).toBeInTheDocument();
    expect(screen.queryByText(password)).not.toBeInTheDocument();
  });

  it('shows a taken e-mail on the e-mail field', async () => {
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, '/staff/create');
    await user.type(await screen.findByLabelText(/e-mail/i), 'coordinator@labdesk.test');
    await user.type(screen.getByLabelText(/^name/i), 'Twin');
    await user.click(screen.getByLabelText(/^role/i));
    await user.click(await screen.findByRole('option', { name: 'Care coordinator' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A staff member with this e-mail already exists')).toBeInTheDocument();
  });

  it('changes a role, disables a member (signed out at once) and refuses to demote the last admin on the role field', async () => {
    const member = await createStaff(stack.bff.db, { email: 'katherine@labdesk.test', name: 'Katherine Johnson', role: 'coordinator', password: 'violet kettle marching upstream' });
    const theirSession = await signInViaBff(member.email, 'violet kettle marching upstream');
    const theirCookie = theirSession.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, `/staff/${member.id}`);

    await user.click(await screen.findByLabelText(/^role/i));
    await user.click(await screen.findByRole('option', { name: 'Lab operations' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await findStaffByEmail(stack.bff.db, member.email))?.role).toBe('lab_ops'));
    const put = stack.requests.find((r) => r.method === 'PUT' && r.path === `/api/staff/${member.id}`);
    expect(put?.body).toEqual({ name: 'Katherine Johnson', role: 'lab_ops' });
    // The role change ended the member's session.
    expect((await stack.bff.app.inject({ url: '/api/auth/me', headers: { cookie: theirCookie } })).statusCode).toBe(401);

    cleanup();
    renderOnStack(stack, `/staff/${member.id}`);
    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Disabled: this member cannot sign in.')).toBeInTheDocument();
    expect((await signInViaBff(member.email, 'violet kettle marching upstream')).statusCode).toBe(401);

    // The fixture's admin is the only one: demoting them is refused, on the role field.
    cleanup();
    renderOnStack(stack, `/staff/${stack.bff.staff.admin.id}`);
    await user.click(await screen.findByLabelText(/^role/i));
    await user.click(await screen.findByRole('option', { name: 'Care coordinator' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/The last active admin cannot be demoted/)).toBeInTheDocument();
    expect((await findStaffByEmail(stack.bff.db, 'admin@labdesk.test'))?.role).toBe('admin');
  });

  it('resets a password: a new one is shown once and the old one stops working', async () => {
    const member = await createStaff(stack.bff.db, { email: 'mary@labdesk.test', name: 'Mary Jackson', role: 'lab_ops', password: 'violet kettle marching upstream' });
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, `/staff/${member.id}`);
    await user.click(await screen.findByRole('button', { name: 'Reset password' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    const dialog = await screen.findByRole('dialog', { name: /password for mary@labdesk.test/i });
    const fresh = within(dialog).getByTestId('generated-password').textContent!;
    expect((await signInViaBff(member.email, 'violet kettle marching upstream')).statusCode).toBe(401);
    expect((await signInViaBff(member.email, fresh)).statusCode).toBe(200);
  });

  it('switches two-factor on for a role', async () => {
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, '/staff');
    const lab = await screen.findByRole('switch', { name: 'Lab operations' });
    await user.click(lab);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Lab operations' })).toBeChecked());
    const policies = await stack.bff.app.inject({ url: '/api/role-policies', headers: { cookie: stack.cookie() } });
    expect(policies.json().find((p: { id: string }) => p.id === 'lab_ops').mfa_required).toBe(true);
    await user.click(screen.getByRole('switch', { name: 'Lab operations' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Lab operations' })).not.toBeChecked());
  });

  it('is not offered to other roles', async () => {
    await stack.signInAs('coordinator');
    renderOnStack(stack);
    expect(await screen.findByRole('menuitem', { name: /users/i })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /staff/i })).not.toBeInTheDocument();
  });
});

describe('the audit trail page', () => {
  it('says the chain is intact and offers the CSV export of the filtered list', async () => {
    await stack.signInAs('admin');
    renderOnStack(stack, '/audit-events');
    expect(await screen.findByTestId('audit-chain')).toHaveTextContent(/Intact: all [\d,]+ events match/);
    const exportLink = screen.getByRole('link', { name: /export csv/i });
    expect(exportLink.getAttribute('href')).toMatch(/^\/api\/audit-events\/export\?filter=/);
  });

  it('names who acted, shows which records they read, and filters by patient and by staff member', async () => {
    const [patient] = (await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-audit-4b1e' }])) as [string];
    const coordinator = await stack.bff.login('coordinator');
    expect((await stack.bff.get(`/api/users/${patient}`, coordinator)).status).toBe(200);
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, '/audit-events');
    // The patient, found by the client id staff know them by.
    await user.type(await screen.findByRole('combobox', { name: 'Patient' }), 'pt-audit-4b');
    await user.click(await screen.findByRole('option', { name: 'pt-audit-4b1e' }));
    // The coordinator's reading of the patient, by name, with the record it read linked to its page.
    expect(await screen.findByText('Test coordinator')).toBeInTheDocument();
    expect(screen.queryByText('coordinator@labdesk.test')).not.toBeInTheDocument();
    const read = screen.getAllByTitle(patient).find((el) => el.tagName === 'A')!;
    expect(read).toHaveAttribute('href', `#/users/${patient}/show`);

    // Another staff member, chosen by name: the coordinator's accesses leave the list.
    await user.type(screen.getByRole('combobox', { name: 'Staff member' }), 'Test admin');
    await user.click(await screen.findByRole('option', { name: 'Test admin' }));
    await waitFor(() => expect(screen.queryByText('Test coordinator')).not.toBeInTheDocument());
    const lists = stack.requests.filter((r) => r.method === 'GET' && r.path === '/api/audit-events');
    expect(JSON.parse(lists.at(-1)!.query.get('filter')!)).toMatchObject({ patient_id: patient, staff_id: expect.any(String) });
  });
});

describe('two-factor on the account page', () => {
  it('sets up two-factor from the QR code’s secret; sign-in then asks for a code', async () => {
    const password = 'violet kettle marching upstream';
    const member = await createStaff(stack.bff.db, { email: 'dorothy@labdesk.test', name: 'Dorothy Vaughan', role: 'coordinator', password });
    stack.reset();
    const { user } = renderOnStack(stack, '/account');
    // Sign in through the page like the member would.
    await user.type(await screen.findByLabelText(/email/i), member.email);
    await user.type(screen.getByLabelText(/password/i), password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await user.click(await screen.findByRole('button', { name: 'Set up two-factor' }));
    const qr = await screen.findByRole('img', { name: /QR code/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = screen.getByTestId('mfa-secret').textContent!;
    await user.type(screen.getByLabelText('Code'), currentCode(secret));
    await user.click(screen.getByRole('button', { name: 'Turn on two-factor' }));
    expect(await screen.findByText(/On: signing in asks for a code/)).toBeInTheDocument();

    const withoutCode = await signInViaBff(member.email, password);
    expect(withoutCode.statusCode).toBe(401);
    expect(withoutCode.json().mfa_required).toBe(true);
  });

  it('sends a member whose role requires two-factor to set it up first', async () => {
    const password = 'violet kettle marching upstream';
    await createStaff(stack.bff.db, { email: 'annie@labdesk.test', name: 'Annie Easley', role: 'lab_ops', password });
    await stack.bff.app.inject({ method: 'PUT', url: '/api/role-policies/lab_ops', payload: { mfa_required: true }, headers: await adminHeaders() });
    try {
      const { user } = renderOnStack(stack);
      await user.type(await screen.findByLabelText(/email/i), 'annie@labdesk.test');
      await user.type(screen.getByLabelText(/password/i), password);
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(await screen.findByText('Your role requires two-factor sign-in. Set it up to start using Labdesk.')).toBeInTheDocument();
      expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    } finally {
      await stack.bff.app.inject({ method: 'PUT', url: '/api/role-policies/lab_ops', payload: { mfa_required: false }, headers: await adminHeaders() });
    }
  });
});

describe('a reviewer’s console', () => {
  it('opens lab reports on the review queue and is offered nothing else', async () => {
    await stack.signInAs('reviewer');
    renderOnStack(stack, '/parser-jobs');
    expect(await screen.findByRole('tab', { name: /review queue/i, selected: true })).toBeInTheDocument();
    // Less a badge's count, should reports wait.
    const menu = screen.getAllByRole('menuitem').map((m) => m.textContent?.replace(/\d+\+?$/, ''));
    expect(menu).toEqual(['Overview', 'Lab reports']);
  });
});

async function adminHeaders() {
  const r = await stack.bff.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@labdesk.test', password: 'correct horse battery staple 42' } });
  const body = r.json();
  return { cookie: r.cookies.map((c) => `${c.name}=${c.value}`).join('; '), 'x-csrf-token': body.csrfToken as string };
}

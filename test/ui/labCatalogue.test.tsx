import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SAMPLE_LAB_ACCOUNTS, SAMPLE_USERS, type StaffAccount } from './fakeBff';
import { renderApp } from './renderApp';

const account = (role: string): StaffAccount => ({
  email: `${role}@labdesk.test`,
  password: 'a long enough password',
  user: { id: `staff-${role}`, email: `${role}@labdesk.test`, name: role, role },
});
const LAB_OPS = account('lab_ops');
const rows = () => screen.getAllByRole('row').slice(1);

describe('lab accounts', () => {
  it('lists accounts with their lab and a status chip (an unknown status shown raw)', async () => {
    const { bff } = renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [LAB_OPS] }, '/lab-accounts');
    expect(await screen.findByText('Demo Quest Client Bill')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);
    const active = within(rows()[0]!).getByText('Active').closest('.MuiChip-root')!;
    expect(active.className).toMatch(/MuiChip-colorSuccess/);
    expect(within(rows()[0]!).getByText('Quest')).toBeInTheDocument();
    const unknown = within(rows()[2]!).getByText('onboarding_review').closest('.MuiChip-root')!;
    expect(unknown.className).toMatch(/MuiChip-outlined/);
    expect(within(rows()[2]!).getByText('Sonora Quest')).toBeInTheDocument();
    expect(bff.requests.find((r) => r.path === '/api/lab-accounts')?.query.get('sort')).toBe('["lab","ASC"]');
  });

  it('filters by status', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [LAB_OPS] }, '/lab-accounts');
    await screen.findByText('Demo Quest Client Bill');
    await user.click(screen.getByRole('combobox', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(screen.queryByText('Sonora Quest (onboarding)')).not.toBeInTheDocument());
    expect(JSON.parse(bff.requests.filter((r) => r.path === '/api/lab-accounts').at(-1)!.query.get('filter')!)).toEqual({ status: 'active' });
  });

  it('shows an account with its allowed billing and default clinical notes', async () => {
    const quest = SAMPLE_LAB_ACCOUNTS[0]!;
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [LAB_OPS] }, `/lab-accounts/${quest.id}/show`);
    const billing = await screen.findByRole('table', { name: 'Allowed billing' });
    const lines = within(billing).getAllByRole('row').slice(1);
    expect(lines).toHaveLength(2);
    expect(within(lines[0]!).getByText('Client bill')).toBeInTheDocument();
    expect(within(lines[0]!).getByText('TX')).toBeInTheDocument();
    expect(within(lines[0]!).getByText('CA')).toBeInTheDocument();
    expect(within(lines[1]!).getByText('Patient bill')).toBeInTheDocument();
    const notes = screen.getByRole('region', { name: 'Default clinical notes' });
    expect(within(notes).getByText('Fasting specimens preferred.')).toBeInTheDocument();
    expect(screen.getByText('97512046')).toBeInTheDocument();
  });

  it('says so when an account allows no billing and has no default notes', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [LAB_OPS] }, `/lab-accounts/${SAMPLE_LAB_ACCOUNTS[2]!.id}/show`);
    expect(await screen.findByText(/No billing type is allowed/)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Default clinical notes' })).getByText('None')).toBeInTheDocument();
  });
});

describe('markers', () => {
  it('lists markers in the catalogue order, filters by lab and searches', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [LAB_OPS] }, '/markers');
    expect(await screen.findByText('TSH')).toBeInTheDocument();
    expect(screen.getByText('Glucose')).toBeInTheDocument();
    expect(bff.requests.find((r) => r.path === '/api/markers')?.query.get('sort')).toBe('["id","ASC"]');
    // No sortable column: the service has one order only.
    expect(screen.getAllByRole('columnheader').filter((h) => h.querySelector('.MuiTableSortLabel-root'))).toHaveLength(0);

    await user.click(screen.getByRole('combobox', { name: /Lab/ }));
    await user.click(await screen.findByRole('option', { name: 'Labcorp' }));
    await waitFor(() => expect(screen.queryByText('TSH')).not.toBeInTheDocument());
    expect(screen.getByText('Glucose')).toBeInTheDocument();
    expect(JSON.parse(bff.requests.filter((r) => r.path === '/api/markers').at(-1)!.query.get('filter')!)).toEqual({ lab_slug: 'labcorp' });

    await user.type(screen.getByRole('textbox', { name: 'Search markers by name or test code' }), 'xyz');
    expect(await screen.findByText('No markers match these filters.')).toBeInTheDocument();
    expect(JSON.parse(bff.requests.filter((r) => r.path === '/api/markers').at(-1)!.query.get('filter')!)).toEqual({ lab_slug: 'labcorp', q: 'xyz' });
  });

  it('shows a marker’s expected results with their LOINC codes', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [LAB_OPS] }, '/markers/1003/show');
    const table = await screen.findByRole('table', { name: 'Expected results' });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(within(row!).getByText('3016-3')).toBeInTheDocument();
    expect(within(row!).getByText('Thyrotropin [Units/volume] in Serum or Plasma')).toBeInTheDocument();
    expect(within(row!).getByText('Yes')).toBeInTheDocument();
    expect(await screen.findByText('Quest Diagnostics')).toBeInTheDocument();
    expect(screen.getByText('1 day usually, 3 days at worst')).toBeInTheDocument();
  });
});

describe('menu by role', () => {
  it('shows lab operations orders, lab accounts and markers', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [LAB_OPS] }, '/');
    expect(await screen.findByRole('menuitem', { name: /Orders/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Lab accounts/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Markers/ })).toBeInTheDocument();
  });

  it('shows reviewers none of them', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [account('reviewer')] }, '/');
    expect(await screen.findByText('reviewer')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: /Orders/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('menuitem', { name: /Lab accounts/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Markers/ })).not.toBeInTheDocument();
  });
});

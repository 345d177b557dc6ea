/**
 * The lab catalogue pages (lab accounts, markers) and the menu by role, on the real stack: the
 * service's synced catalogue and the team's demo lab accounts, read through the real BFF.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LabAccount } from '../../server/contract';
import { renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';
import { addLabAccount } from './seed/orders';


let stack: RealStack;
/** The team's demo accounts (server/service/seed/labCatalogue.ts), by lab. */
let quest: LabAccount;
/** An account still under review (a status this dashboard does not know), allowing no billing, with no default notes. */
let reviewAccountId: string;
const REVIEW_ACCOUNT = 'Sonora Quest onboarding review';

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  reviewAccountId = await addLabAccount(service, service.team, {
    labSlug: 'sonora_quest',
    status: 'onboarding_review',
    delegatedFlow: 'result_delegated',
    providerAccountId: 'SQ-REVIEW-1',
    accountName: REVIEW_ACCOUNT,
    orgId: null,
    defaultClinicalNotes: null,
    businessUnits: null,
    allowedBilling: {},
  });
  const accounts = (await service.call<{ data: LabAccount[] }>(service.team, 'GET', '/v3/lab_test/lab_account')).body.data;
  quest = accounts.find((a) => a.lab === 'quest')!;
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

const rows = () => screen.getAllByRole('row').slice(1);
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;
const calls = (path: string) => stack.requests.filter((r) => r.method === 'GET' && r.path === path);

describe('lab accounts', () => {
  it('lists accounts with their lab and a status chip (an unknown status shown raw)', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, '/lab-accounts');
    expect(await screen.findByText('Demo Health Quest Client Bill')).toBeInTheDocument();
    // The four demo accounts and the one under review.
    expect(rows()).toHaveLength(5);
    const questRow = rowOf('Demo Health Quest Client Bill');
    const active = within(questRow).getByText('Active').closest('.MuiChip-root')!;
    expect(active.className).toMatch(/MuiChip-colorSuccess/);
    expect(within(questRow).getByText('Quest')).toBeInTheDocument();
    const reviewRow = rowOf(REVIEW_ACCOUNT);
    const unknown = within(reviewRow).getByText('onboarding_review').closest('.MuiChip-root')!;
    expect(unknown.className).toMatch(/MuiChip-outlined/);
    expect(within(reviewRow).getByText('Sonora Quest')).toBeInTheDocument();
    // Sorted by lab, as asked.
    expect(calls('/api/lab-accounts')[0]?.query.get('sort')).toBe('["lab","ASC"]');
    expect(rows().map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual(['BioReference', 'Labcorp', 'Quest', 'Sonora Quest', 'Sonora Quest']);
  });

  it('filters by status', async () => {
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, '/lab-accounts');
    await screen.findByText('Demo Health Quest Client Bill');
    await user.click(screen.getByRole('combobox', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(screen.queryByText(REVIEW_ACCOUNT)).not.toBeInTheDocument());
    expect(screen.queryByText('Demo Health Sonora Quest (onboarding)')).not.toBeInTheDocument(); // pending
    expect(rows()).toHaveLength(3);
    expect(JSON.parse(calls('/api/lab-accounts').at(-1)!.query.get('filter')!)).toEqual({ status: 'active' });
  });

  it('shows an account with its allowed billing and default clinical notes', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, `/lab-accounts/${quest.id}/show`);
    const billing = await screen.findByRole('table', { name: 'Allowed billing' });
    const lines = within(billing).getAllByRole('row').slice(1);
    // The demo Quest account allows client bill, patient bill and commercial insurance (in the
    // service's key order: its store keeps JSON object keys shortest first).
    expect(lines.map((l) => within(l).getAllByRole('cell')[0]!.textContent)).toEqual(['Client bill', 'Patient bill', 'Commercial insurance']);
    expect(within(lines[0]!).getByText('TX')).toBeInTheDocument();
    expect(within(lines[0]!).getByText('CA')).toBeInTheDocument();
    expect(within(lines[0]!).queryByText('NY')).not.toBeInTheDocument(); // restricted
    const notes = screen.getByRole('region', { name: 'Default clinical notes' });
    expect(within(notes).getByText('Fasting specimens preferred. Call 555-0100 with critical values.')).toBeInTheDocument();
    expect(screen.getByText('97512046')).toBeInTheDocument();
  });

  it('says so when an account allows no billing and has no default notes', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, `/lab-accounts/${reviewAccountId}/show`);
    expect(await screen.findByText(/No billing type is allowed/)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Default clinical notes' })).getByText('None')).toBeInTheDocument();
  });
});

describe('markers', () => {
  it('lists markers in the catalogue order, filters by lab and searches', async () => {
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, '/markers');
    // The catalogue's own order: lab by lab (Quest first), by name within a lab.
    expect(await screen.findByText('Glucose')).toBeInTheDocument();
    expect(rows().slice(0, 3).map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['ALT', 'AST', 'Albumin']);
    await waitFor(() => expect(rows().every((r) => within(r).queryByText('Quest Diagnostics'))).toBe(true));
    expect(screen.getByText('Alkaline Phosphatase')).toBeInTheDocument(); // Quest's only
    expect(calls('/api/markers')[0]?.query.get('sort')).toBe('["id","ASC"]');
    // No sortable column: the service has one order only.
    expect(screen.getAllByRole('columnheader').filter((h) => h.querySelector('.MuiTableSortLabel-root'))).toHaveLength(0);

    await user.click(screen.getByRole('combobox', { name: /Lab/ }));
    await user.click(await screen.findByRole('option', { name: 'Labcorp' }));
    // Labcorp offers Glucose too, but not Alkaline Phosphatase (Quest's only); Folate is Labcorp's only.
    await waitFor(() => expect(screen.queryByText('Alkaline Phosphatase')).not.toBeInTheDocument());
    expect(await screen.findByText('Folate, Serum')).toBeInTheDocument();
    expect(screen.getByText('Glucose')).toBeInTheDocument();
    await waitFor(() => expect(rows().every((r) => within(r).queryByText('Labcorp'))).toBe(true));
    expect(JSON.parse(calls('/api/markers').at(-1)!.query.get('filter')!)).toEqual({ lab_slug: 'labcorp' });

    await user.type(screen.getByRole('textbox', { name: 'Search markers by name or test code' }), 'xyz');
    expect(await screen.findByText('No markers match these filters.')).toBeInTheDocument();
    expect(JSON.parse(calls('/api/markers').at(-1)!.query.get('filter')!)).toEqual({ lab_slug: 'labcorp', q: 'xyz' });
  });

  it('shows a marker’s expected results with their LOINC codes', async () => {
    // Marker 1003: Quest's TSH (a lab's marker id is lab_id * 1000 + n).
    await stack.signInAs('lab_ops');
    renderOnStack(stack, '/markers/1003/show');
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
    await stack.signInAs('lab_ops');
    renderOnStack(stack, '/');
    expect(await screen.findByRole('menuitem', { name: /Orders/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Lab accounts/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Markers/ })).toBeInTheDocument();
  });

  it('shows reviewers none of them', async () => {
    await stack.signInAs('reviewer');
    renderOnStack(stack, '/');
    expect(await screen.findByText('Test reviewer')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: /Orders/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('menuitem', { name: /Lab accounts/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Markers/ })).not.toBeInTheDocument();
  });
});

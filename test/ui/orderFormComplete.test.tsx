/**
 * The complete order form on the real stack, one coordinator's flow: a pending lab's tests are
 * shown but cannot be picked, the lab test's question is asked, the physician's NPI and the ICD-10
 * codes are checked (the codes by the service), insurance billing asks for the insurance, and the
 * placed order's page shows what was sent.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerId } from '../../server/service/seed/labCatalogue';
import { renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';

type User = ReturnType<typeof userEvent.setup>;

let stack: RealStack;
let userId: string;

beforeAll(async () => {
  stack = await startRealStack();
  [userId] = (await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-5c1e0a77' }])) as [string];
});
afterAll(async () => {
  await stack?.close();
});

const field = (label: RegExp) => screen.getByLabelText(label);
const control = (label: RegExp) => field(label).closest('.MuiFormControl-root') as HTMLElement;
const type = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });

async function choose(user: User, label: RegExp, option: string | RegExp) {
  await user.click(await screen.findByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
}

describe('the complete order form', () => {
  it('asks what the lab and the payer need, checks it as it is entered, and shows it on the order', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, '/orders/create');

    // Sonora Quest's only account is pending: its tests are listed, disabled, with the reason.
    await user.click(await screen.findByRole('combobox', { name: /Lab test/ }));
    const pending = await screen.findByRole('option', { name: 'Lipid Panel (Sonora Quest) — lab account pending approval' });
    expect(pending).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Lipid Panel (Quest Diagnostics)' })).not.toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Escape}');

    // Men's Health has a PSA: the lab asks whether it is a screening PSA.
    await choose(user, /Lab test/, "Men's Health (Quest Diagnostics)");
    const psa = await screen.findByRole('group', { name: 'Questions for PSA, Total' });
    await choose(user, /Is this a screening PSA\?/, 'Yes');
    expect(within(psa).getByText('Required by the lab')).toBeInTheDocument();

    const users = await screen.findByRole('combobox', { name: /User \(client user id\)/ });
    await user.type(users, 'pt-5c');
    await user.click(await screen.findByRole('option', { name: 'pt-5c1e0a77' }));
    type(/First name/, 'Ada');
    type(/Last name/, 'Lovelace');
    type(/Date of birth/, '1980-04-02');
    await choose(user, /Gender/, 'Female');
    type(/^Phone \*/, '+15555550100');
    type(/Email/, 'ada@example.com');
    type(/Street address/, '1 Main Street');
    type(/City/, 'Austin');
    await choose(user, /^State/, 'TX');
    type(/Zip code/, '73301');

    // A mistyped NPI is caught by its check digit.
    type(/Physician given name/, 'Grace');
    type(/Physician family name/, 'Hopper');
    type(/NPI/, '1234567894');
    fireEvent.blur(field(/NPI/));
    expect(await within(control(/NPI/)).findByText(/Not a valid NPI/)).toBeInTheDocument();
    type(/NPI/, '1234567893');
    await waitFor(() => expect(within(control(/NPI/)).queryByText(/Not a valid NPI/)).not.toBeInTheDocument());

    // The service's verdict per code: prediabetes is never coded with diabetes.
    type(/ICD-10 codes/, 'E11.9, R73.03');
    const check = await screen.findByRole('status', { name: 'ICD-10 check' });
    expect(await within(check).findByText(/not coded together with E11\.9 \(excludes1\)/)).toBeInTheDocument();
    type(/ICD-10 codes/, 'e11.9 I10');
    await waitFor(() => expect(within(screen.getByRole('status', { name: 'ICD-10 check' })).getAllByText('Valid, billable')).toHaveLength(2));

    // Billed to insurance: the insurance is asked for, and required.
    expect(screen.queryByRole('group', { name: 'Health insurance' })).not.toBeInTheDocument();
    await choose(user, /Billing type/, 'Commercial insurance');
    expect(await screen.findByRole('group', { name: 'Health insurance' })).toBeInTheDocument();
    type(/Payor code/, 'BCBS-TX');
    type(/Member id/, 'XYZ123456');
    type(/Group number/, '0042');
    await user.click(screen.getByRole('checkbox', { name: 'HIPAA authorization' }));
    type(/Consent version/, '2026-01');

    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(stack.requests.filter((r) => r.method === 'POST' && r.path === '/api/orders')).toHaveLength(1));
    const post = stack.requests.find((r) => r.method === 'POST' && r.path === '/api/orders')!;
    expect(post.body).toMatchObject({
      user_id: userId,
      physician: { first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' },
      icd_codes: ['E11.9', 'I10'],
      billing_type: 'commercial_insurance',
      health_insurance: { payor_code: 'BCBS-TX', insurance_id: 'XYZ123456', group_id: '0042', responsible_relationship: 'Self' },
      consents: [{ consentType: 'hipaa-authorization', version: '2026-01' }],
      aoe_answers: [{ marker_id: markerId(1, 32), question_id: markerId(1, 32) * 10 + 1, answer: 'Y' }],
    });

    // The order's page shows its clinical details.
    const details = await screen.findByRole('region', { name: 'Clinical details' });
    expect(within(details).getByText('Grace Hopper · NPI 1234567893')).toBeInTheDocument();
    expect(within(details).getByText('I10')).toBeInTheDocument();
    expect(within(details).getByText('BCBS-TX')).toBeInTheDocument();
    expect(within(details).getByText('XYZ123456')).toBeInTheDocument();
    expect(within(details).getByText(/HIPAA authorization, version 2026-01 · given/)).toBeInTheDocument();
  });
});

/**
 * The patient in one place, on the real stack: the patient page's tabs list this patient's orders
 * and lab reports (nobody else's), "New order for this patient" opens the order form filled from
 * their last order, and creating a patient with an e-mail as client id shows the service's
 * refusal on that field.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WireOrder } from '../bff/ordersFixture';
import { fill, renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';
import { patient, setCreatedAt } from './seed/orders';
import { uploadReport } from './seed/parser';

let stack: RealStack;
let patientId: string;
let otherId: string;
let older: WireOrder;
let newest: WireOrder;
let othersOrder: WireOrder;
/** A patient with no order and no report yet. */
let newcomerId: string;

const address = (access_notes: string) => ({ first_line: '12 Elm Street', city: 'Austin', state: 'TX', zip: '73301', country: 'US', access_notes });

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  [patientId, otherId, newcomerId] = (await service.addUsers(service.team, [
    { clientUserId: 'pt-4c2e8d10' },
    { clientUserId: 'pt-5d3f9e21' },
    { clientUserId: 'pt-6e4a0f32' },
  ])) as [string, string, string];
  older = await service.placeOrder(service.team, patientId, { patient_details: patient('Grace', 'Hopper', '1906-12-09'), patient_address: address('Old gate code') });
  newest = await service.placeOrder(service.team, patientId, {
    patient_details: { ...patient('Grace', 'Hopper', '1906-12-09'), phone_number: '+15555550199' },
    patient_address: address('Gate code 4711; ring twice'),
  });
  othersOrder = await service.placeOrder(service.team, otherId, { patient_details: patient('Alan', 'Turing') });
  await service.driveOrder(service.team, older.id, 'completed.walk_in_test.completed');
  await setCreatedAt(service, older.id, '2026-05-01T09:00:00.000Z');
  await setCreatedAt(service, newest.id, '2026-05-03T09:00:00.000Z');
  await setCreatedAt(service, othersOrder.id, '2026-05-02T09:00:00.000Z');
  await uploadReport(service, service.team, patientId, { name: 'hopper-lipids.png' });
  await uploadReport(service, service.team, otherId, { name: 'turing-panel.png' });
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

const orderLink = (o: WireOrder) => `Order ${o.id.slice(0, 8)}`;

describe('the patient page', () => {
  it('lists the patient’s own orders newest first and their lab reports, each in its tab', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/users/${patientId}/show/orders`);
    const table = await screen.findByRole('table', { name: 'Orders of this patient' });
    await waitFor(() => expect(within(table).getAllByRole('link').map((a) => a.textContent)).toEqual([orderLink(newest), orderLink(older)]));
    expect(within(table).queryByText(orderLink(othersOrder))).not.toBeInTheDocument();
    // Each row's status chip: the older order was completed, the newest is still just ordered.
    const [, newestRow, olderRow] = within(table).getAllByRole('row');
    expect(within(newestRow!).getByText('Ordered')).toBeInTheDocument();
    expect(within(olderRow!).getByText('Completed')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Lab reports' }));
    const reports = await screen.findByRole('table', { name: 'Lab reports of this patient' });
    expect(await within(reports).findByText('hopper-lipids.png')).toBeInTheDocument();
    expect(within(reports).queryByText('turing-panel.png')).not.toBeInTheDocument();
  });

  it('opens the order form filled from the patient’s last order', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/users/${patientId}/show`);
    const button = await screen.findByRole('link', { name: 'New order for this patient' });
    // Enabled once the last order is known.
    await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled', 'true'));
    await user.click(button);
    expect(await screen.findByLabelText(/First name/)).toHaveValue('Grace');
    expect(screen.getByLabelText(/Last name/)).toHaveValue('Hopper');
    expect(screen.getByLabelText(/Date of birth/)).toHaveValue('1906-12-09');
    expect(screen.getByLabelText(/^Phone \*/)).toHaveValue('+15555550199');
    expect(screen.getByLabelText(/Street address/)).toHaveValue('12 Elm Street');
    expect(screen.getByLabelText(/Access notes/)).toHaveValue('Gate code 4711; ring twice');
    await waitFor(() => expect(screen.getByRole('combobox', { name: /User \(client user id\)/ })).toHaveValue('pt-4c2e8d10'));
  });
});

describe('a patient with nothing yet', () => {
  it('says so in the Orders tab, and its New order starts from the patient alone', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/users/${newcomerId}/show/orders`);
    expect(await screen.findByText('No orders yet')).toBeInTheDocument();
    const button = screen.getByRole('link', { name: 'New order' });
    await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled', 'true'));
    await user.click(button);
    await waitFor(() => expect(screen.getByRole('combobox', { name: /User \(client user id\)/ })).toHaveValue('pt-6e4a0f32'));
    expect(screen.getByLabelText(/First name/)).toHaveValue('');
  });

  it('opens the report upload with the patient chosen', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/users/${newcomerId}/show/reports`);
    expect(await screen.findByText('No lab reports yet')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Upload a report' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Patient \(client user id\)/ })).toHaveValue('pt-6e4a0f32'));
  });
});

describe('creating a patient', () => {
  it('shows the service’s refusal of an e-mail as client id on that field', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, '/users/create');
    await fill(user, await screen.findByLabelText(/Client user id/), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const control = screen.getByLabelText(/Client user id/).closest('.MuiFormControl-root') as HTMLElement;
    expect(await within(control).findByText(/personally identifiable information/)).toBeInTheDocument();
    expect(stack.requests.some((r) => r.method === 'POST' && r.path === '/api/users')).toBe(true);
  });
});

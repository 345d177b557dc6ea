/**
 * Order triage on the real stack: claiming from the needs-attention list in bulk (one order is
 * someone else's, so the notification says what was not done), resolving and reshipping a lost kit
 * from the order page, and cancelling an order, which asks for a reason and keeps it as a staff note.
 */
import { eq } from 'drizzle-orm';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orders } from '../../server/service/db/schema';
import { labTestId, type WireOrder } from '../bff/ordersFixture';
import { fill, renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';
import { patient } from './seed/orders';

let stack: RealStack;
const o = {} as Record<'grace' | 'alan' | 'barbara', WireOrder>;
const KIT = labTestId('quest', 'Thyroid Check');
const USPS = '9400111899223344556677';

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  const [user] = await service.addUsers(service.team, [{ clientUserId: 'pt-triage-ui' }]);
  o.grace = await service.placeOrder(service.team, user!, { lab_test_id: KIT, patient_details: patient('Grace', 'Hopper') });
  o.alan = await service.placeOrder(service.team, user!, { lab_test_id: KIT, patient_details: patient('Alan', 'Turing') });
  o.barbara = await service.placeOrder(service.team, user!, { patient_details: patient('Barbara', 'Liskov') });
  await service.driveOrder(service.team, o.grace.id, 'collecting_sample.testkit.problem_in_transit_lab');
  await service.driveOrder(service.team, o.alan.id, 'failed.testkit.lost');
  await service.db.update(orders).set({ shipment: { id: 'shp-1', outbound_tracking_number: USPS, outbound_courier: 'usps' } }).where(eq(orders.id, o.alan.id));
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const posts = (path: string) => stack.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('order triage', () => {
  it('claims the selected orders from the needs-attention list, and says which one was someone else’s', async () => {
    // A coordinator already works on Grace Hopper's order.
    const coordinator = await stack.bff.login('coordinator');
    expect((await stack.bff.request({ method: 'POST', url: `/api/orders/${o.grace.id}/triage/claim`, session: coordinator })).status).toBe(200);

    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, '/orders');
    await user.click(await screen.findByRole('tab', { name: /Needs attention/ }));
    await screen.findByRole('columnheader', { name: /Owner/ });
    // The queue's answer (the all-orders rows show until it arrives).
    await waitFor(() => expect(within(rowOf('Grace Hopper')).getByText(stack.bff.staff.coordinator.name)).toBeInTheDocument());
    expect(within(rowOf('Alan Turing')).getByText('Unclaimed')).toBeInTheDocument();
    // The lost kit's tracking number links to the carrier.
    expect(within(rowOf('Alan Turing')).getByRole('link', { name: new RegExp(`Track ${USPS}`) })).toHaveAttribute('href', expect.stringContaining(`tools.usps.com/go/TrackConfirmAction?tLabels=${USPS}`));

    await user.click(within(rowOf('Grace Hopper')).getByRole('checkbox'));
    await user.click(within(rowOf('Alan Turing')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Claim' }));

    expect(await screen.findByText(/^Claimed 1 of 2\. Not done \(1\): Claimed by/)).toBeInTheDocument();
    expect(posts('/api/orders/triage/bulk-claim')[0]?.body).toEqual({ ids: expect.arrayContaining([o.grace.id, o.alan.id]) });
    await waitFor(() => expect(within(rowOf('Alan Turing')).getByText(stack.bff.staff.lab_ops.name)).toBeInTheDocument());
    expect(within(rowOf('Grace Hopper')).getByText(stack.bff.staff.coordinator.name)).toBeInTheDocument();
  });

  it('resolves an order from its page with an outcome and a note', async () => {
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, `/orders/${o.alan.id}/show`);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    const resolve = await within(panel).findByRole('button', { name: /Resolve/ });
    await waitFor(() => expect(resolve).toBeEnabled());
    await user.click(resolve);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: /Outcome/ }));
    await user.click(await screen.findByRole('option', { name: 'Patient contacted' }));
    await fill(user, within(dialog).getByLabelText(/Note/), 'Patient will post the kit back on Monday');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));

    expect(await screen.findByText(/^Resolved: the order leaves the queue/)).toBeInTheDocument();
    expect(posts(`/api/orders/${o.alan.id}/triage/resolve`)[0]?.body).toEqual({ outcome: 'patient_contacted', note: 'Patient will post the kit back on Monday' });
    expect(await within(panel).findByTestId('triage-resolution')).toHaveTextContent(/Patient contacted by .*Patient will post the kit back on Monday/);
  });

  it('reships a lost kit from its page after asking, and links the new order', async () => {
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, `/orders/${o.alan.id}/show`);
    const panel = await screen.findByRole('region', { name: 'Triage' });
    await user.click(await within(panel).findByRole('button', { name: 'Reship kit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Reship the kit?')).toBeInTheDocument();
    await fill(user, within(dialog).getByLabelText(/Note/), 'Second kit, signature required');
    await user.click(within(dialog).getByRole('button', { name: 'Reship kit' }));

    expect(await screen.findByText(/^A new kit is on its way: order [0-9a-f]{8} is placed/)).toBeInTheDocument();
    expect(posts(`/api/orders/${o.alan.id}/triage/reship`)[0]?.body).toEqual({ note: 'Second kit, signature required' });
    const link = await within(panel).findByRole('link', { name: 'Open the new order' });
    const placed = await stack.service.call<{ orders: WireOrder[] }>(stack.service.team, 'GET', `/v3/orders?user_id=${o.alan.user_id}&size=50`);
    const fresh = placed.body.orders.find((x) => ![o.grace.id, o.alan.id, o.barbara.id].includes(x.id));
    expect(fresh).toBeDefined();
    expect(link.getAttribute('href')).toContain(fresh!.id);
    expect(within(panel).getByTestId('triage-resolution')).toHaveTextContent(/Kit reshipped by .*Second kit, signature required/);
  });

  it('asks why before cancelling an order, and keeps the reason as a note', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/orders/${o.barbara.id}/show`);
    await screen.findByRole('region', { name: 'Triage' });
    await user.click(await screen.findByRole('button', { name: /Cancel order/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Cancel order/ }));
    expect(await within(dialog).findByText('Say why the order is cancelled')).toBeInTheDocument();
    expect(posts(`/api/orders/${o.barbara.id}/cancel`)).toHaveLength(0);

    await fill(user, within(dialog).getByLabelText(/Reason/), 'Patient moved abroad');
    await user.click(within(dialog).getByRole('button', { name: /Cancel order/ }));
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    expect(posts(`/api/orders/${o.barbara.id}/cancel`)[0]?.body).toEqual({ reason: 'Patient moved abroad' });
    const notes = await screen.findByRole('list', { name: 'Staff notes' });
    expect(within(notes).getByText('Cancelled: Patient moved abroad')).toBeInTheDocument();
  });
});

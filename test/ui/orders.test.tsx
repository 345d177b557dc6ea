import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, SAMPLE_ORDERS, SAMPLE_USERS, type RecordedRequest, type StaffAccount } from './fakeBff';
import { renderApp } from './renderApp';

const account = (role: string): StaffAccount => ({
  email: `${role}@labdesk.test`,
  password: 'a long enough password',
  user: { id: `staff-${role}`, email: `${role}@labdesk.test`, name: role, role },
});
const COORDINATOR = account('coordinator');
const LAB_OPS = account('lab_ops');

const rows = () => screen.getAllByRole('row').slice(1); // minus the header row
const ordersCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'GET' && r.path === '/api/orders');
const grace = SAMPLE_ORDERS[0]!;

describe('orders list', () => {
  it('shows each order with coloured status chips, and an unknown status raw on a neutral chip', async () => {
    const { bff } = renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true, staff: [LAB_OPS] }, '/orders');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(rows()).toHaveLength(4);

    const problem = within(rows()[0]!).getByText('Problem in transit to lab').closest('.MuiChip-root')!;
    expect(problem.className).toMatch(/MuiChip-colorWarning/);
    const lost = within(rows()[3]!).getByText('Lost').closest('.MuiChip-root')!;
    expect(lost.className).toMatch(/MuiChip-colorError/);

    // A status this dashboard has never heard of: shown as is, outlined, not an error.
    const unknown = within(rows()[1]!).getByText('awaiting_courier').closest('.MuiChip-root')!;
    expect(unknown.className).toMatch(/MuiChip-outlined/);
    expect(unknown.className).not.toMatch(/MuiChip-color(Error|Warning|Success|Primary)/);
    expect(unknown).toHaveAttribute('title', 'A status this dashboard does not know yet');
    expect(within(rows()[1]!).getByText('mystery_stage')).toBeInTheDocument();

    // The user column reads the users resource (getMany); the default sort is the newest first.
    expect(await within(rows()[0]!).findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(ordersCalls(bff.requests)[0]?.query.get('sort')).toBe('["created_at","DESC"]');
    // Lab operations may not place orders.
    expect(screen.queryByRole('link', { name: /create/i })).not.toBeInTheDocument();
  });

  it('has a "Needs attention" view of orders with problems in transit or failures', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true, staff: [LAB_OPS] }, '/orders');
    await screen.findByText('Grace Hopper');
    await user.click(screen.getByRole('tab', { name: /Needs attention/ }));

    // Wait for the narrowed page itself, not just for the old rows to go (a loading state also hides them).
    await waitFor(() => {
      expect(screen.queryByText('Alan Turing')).not.toBeInTheDocument();
      expect(rows()).toHaveLength(2);
    });
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('Edsger Dijkstra')).toBeInTheDocument();
    expect(JSON.parse(ordersCalls(bff.requests).at(-1)!.query.get('filter')!)).toEqual({ needs_attention: true });
    expect(screen.getByRole('tab', { name: /Needs attention/ })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'All orders' }));
    expect(await screen.findByText('Alan Turing')).toBeInTheDocument();
    // The unfiltered page may first come from react-query's cache; its refetch follows.
    await waitFor(() => expect(JSON.parse(ordersCalls(bff.requests).at(-1)!.query.get('filter')!)).toEqual({}));
  });

  it('says when nothing needs attention', async () => {
    renderApp({ users: SAMPLE_USERS, orders: [SAMPLE_ORDERS[2]!], signedIn: true }, '/orders?filter=%7B%22needs_attention%22%3Atrue%7D');
    expect(await screen.findByText('No order needs attention right now.')).toBeInTheDocument();
  });

  it('searches, and sorts by patient name and status as the BFF allows', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true }, '/orders');
    await screen.findByText('Grace Hopper');
    await user.type(screen.getByRole('textbox', { name: 'Search orders' }), 'turing');
    await waitFor(() => expect(screen.queryByText('Grace Hopper')).not.toBeInTheDocument());
    expect(screen.getByText('Alan Turing')).toBeInTheDocument();
    expect(JSON.parse(ordersCalls(bff.requests).at(-1)!.query.get('filter')!)).toEqual({ q: 'turing' });

    const sortable = screen.getAllByRole('columnheader').filter((h) => h.querySelector('.MuiTableSortLabel-root'));
    expect(sortable.map((h) => h.textContent?.replace(/Times are shown.*$/, ''))).toEqual(['Created', 'Patient', 'Status']);
    await user.click(within(sortable[2]!).getByRole('button'));
    await waitFor(() => expect(ordersCalls(bff.requests).at(-1)?.query.get('sort')).toMatch(/^\["last_status",/));
  });

  it('filters by a created date range in the viewer’s own days', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true }, '/orders');
    await screen.findByText('Grace Hopper');
    await user.click(screen.getByRole('button', { name: /add filter/i }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Created from' }));
    fireEvent.change(await screen.findByLabelText('Created from'), { target: { value: '2026-05-05' } });
    await waitFor(() => expect(JSON.parse(ordersCalls(bff.requests).at(-1)!.query.get('filter')!)).toHaveProperty('start_date'));
    const filter = JSON.parse(ordersCalls(bff.requests).at(-1)!.query.get('filter')!) as { start_date: string };
    // Local midnight of 5 May, sent as an instant.
    expect(filter.start_date).toBe(new Date(2026, 4, 5, 0, 0, 0, 0).toISOString());
    await waitFor(() => expect(screen.queryByText('Katherine Johnson')).not.toBeInTheDocument());
  });
});

describe('an order page', () => {
  it('shows the timeline, patient, address with access notes, lab account and clinical notes', async () => {
    renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true, staff: [LAB_OPS] }, `/orders/${grace.id}/show`);

    const timeline = await screen.findByRole('region', { name: 'Order timeline' });
    const steps = within(timeline).getAllByRole('listitem');
    expect(steps.map((s) => within(s).getByText(/./, { selector: '.MuiChip-label' }).textContent)).toEqual([
      'Ordered',
      'Requisition created',
      'In transit to lab',
      'Problem in transit to lab',
    ]);
    // Each step carries its time, in the viewer's zone.
    const when = steps[3]!.querySelector('time')!;
    expect(when).toHaveAttribute('datetime', '2026-05-08T12:30:00.000Z');
    expect(when.textContent).toBe(new Date('2026-05-08T12:30:00.000Z').toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

    const patient = screen.getByRole('region', { name: 'Patient' });
    expect(within(patient).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(patient).getByText('1906-12-09')).toBeInTheDocument();
    const address = screen.getByRole('region', { name: 'Address' });
    expect(within(address).getByText('1 Main Street')).toBeInTheDocument();
    expect(within(address).getByText('Austin, TX 73301')).toBeInTheDocument();
    expect(within(address).getByTestId('access-notes')).toHaveTextContent('Gate code 4711; park behind the building');
    expect(screen.getByTestId('clinical-notes').textContent).toBe('Repeat the kit if the sample is lost.\nCall before shipping.');
    const lab = screen.getByRole('region', { name: 'Lab account' });
    expect(await within(lab).findByText(/Demo Quest Client Bill/)).toBeInTheDocument();

    const download = screen.getByRole('link', { name: /Download requisition/ });
    expect(download).toHaveAttribute('href', `/api/orders/${grace.id}/requisition.pdf`);
    // Lab operations read orders but do not cancel them.
    expect(screen.queryByRole('button', { name: /Cancel order/ })).not.toBeInTheDocument();
  });

  it('shows an unknown event status raw in the timeline', async () => {
    const turing = SAMPLE_ORDERS[1]!;
    renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true }, `/orders/${turing.id}/show`);
    const timeline = await screen.findByRole('region', { name: 'Order timeline' });
    expect(within(timeline).getByText('awaiting_courier')).toBeInTheDocument();
    expect(within(timeline).getByTitle('mystery_stage.walk_in_test.awaiting_courier')).toBeInTheDocument();
  });

  it('cancels an open order after confirmation, and only then shows it cancelled', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true, staff: [COORDINATOR] }, `/orders/${grace.id}/show`);
    await screen.findByRole('region', { name: 'Order timeline' });
    await user.click(screen.getByRole('button', { name: /Cancel order/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Cancel this order?')).toBeInTheDocument();
    expect(bff.requests.some((r) => r.path.endsWith('/cancel'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: /Cancel order/ }));

    await waitFor(() => expect(bff.requests.some((r) => r.method === 'POST' && r.path === `/api/orders/${grace.id}/cancel`)).toBe(true));
    const cancel = bff.requests.find((r) => r.path.endsWith('/cancel'))!;
    expect(cancel.headers.get('x-csrf-token')).toBeTruthy();
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Order' });
    await waitFor(() => expect(within(summary).getAllByText('Cancelled').length).toBeGreaterThan(0));
    // A cancelled order is final: no more cancel button.
    await waitFor(() => expect(screen.queryByRole('button', { name: /Cancel order/ })).not.toBeInTheDocument());
  });

  it('offers no cancel button on a final order, even to coordinators', async () => {
    renderApp({ users: SAMPLE_USERS, orders: SAMPLE_ORDERS, signedIn: true, staff: [COORDINATOR] }, `/orders/${SAMPLE_ORDERS[2]!.id}/show`);
    await screen.findByRole('region', { name: 'Order timeline' });
    expect(screen.getByRole('link', { name: /Download requisition/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Cancel order/ })).not.toBeInTheDocument();
  });

  it('says why a cancel failed, and leaves the order as it was', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderApp(
      {
        users: SAMPLE_USERS,
        orders: SAMPLE_ORDERS,
        signedIn: true,
        staff: [ADMIN],
        // Someone else completed it meanwhile.
        cancelOrder: () => ({ status: 422, body: { message: 'order_id: the order is already completed', errors: { order_id: 'the order is already completed' } } }),
      },
      `/orders/${grace.id}/show`,
    );
    await screen.findByRole('region', { name: 'Order timeline' });
    await user.click(screen.getByRole('button', { name: /Cancel order/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /Cancel order/ }));
    expect(await screen.findByText('Could not cancel the order: order_id: the order is already completed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Order' })).getByText('Problem in transit to lab')).toBeInTheDocument();
  });
});

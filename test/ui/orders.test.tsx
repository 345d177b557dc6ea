/**
 * The orders list and an order's page on the real stack: orders placed and driven through the real
 * service's API (one given a status from a newer service version in its table), read and cancelled
 * through the real BFF.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { labTestId, type WireOrder } from '../bff/ordersFixture';
import { fill, renderOnStack } from './renderApp';
import { startRealStack, type RealStack } from './realStack';
import { patient, setCreatedAt, setEventTimes, setUnknownStatus } from './seed/orders';


let stack: RealStack;
/** The team's orders, newest first as the list shows them (creation instants fixed in May 2026). */
const o = {} as Record<'grace' | 'turing' | 'johnson' | 'dijkstra' | 'liskov' | 'lamarr', WireOrder>;
/** Grace Hopper's events, at fixed instants (a test kit driven to a problem on its way to the lab). */
const GRACE_EVENT_TIMES = [
  '2026-05-06T09:00:00.000Z',
  '2026-05-06T10:00:00.000Z',
  '2026-05-06T14:00:00.000Z',
  '2026-05-06T18:00:00.000Z',
  '2026-05-07T08:00:00.000Z',
  '2026-05-07T16:00:00.000Z',
  '2026-05-08T12:30:00.000Z',
];
const KIT = labTestId('quest', 'Thyroid Check');
const address = (access_notes: string) => ({ first_line: '1 Main Street', city: 'Austin', state: 'TX', zip: '73301', country: 'US', access_notes });

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  const { team } = service;
  const [user] = await service.addUsers(team, [{ clientUserId: 'pt-7f3a2c91' }]);
  o.grace = await service.placeOrder(team, user!, {
    lab_test_id: KIT,
    patient_details: patient('Grace', 'Hopper', '1906-12-09'),
    patient_address: address('Gate code 4711; park behind the building'),
    clinical_notes: 'Repeat the kit if the sample is lost.\nCall before shipping.',
  });
  o.turing = await service.placeOrder(team, user!, { patient_details: patient('Alan', 'Turing', '1912-06-23') });
  o.johnson = await service.placeOrder(team, user!, { patient_details: patient('Katherine', 'Johnson', '1918-08-26') });
  o.dijkstra = await service.placeOrder(team, user!, { lab_test_id: KIT, patient_details: patient('Edsger', 'Dijkstra', '1930-05-11') });
  // Open orders for the cancel tests (walk-in, just ordered): one to cancel, one someone else completes meanwhile.
  o.liskov = await service.placeOrder(team, user!, { patient_details: patient('Barbara', 'Liskov', '1939-11-07') });
  o.lamarr = await service.placeOrder(team, user!, { patient_details: patient('Hedy', 'Lamarr', '1914-11-09') });
  await service.driveOrder(team, o.grace.id, 'collecting_sample.testkit.problem_in_transit_lab');
  await service.driveOrder(team, o.johnson.id, 'completed.walk_in_test.completed');
  await service.driveOrder(team, o.dijkstra.id, 'failed.testkit.lost');
  // A stage and status from a newer service version.
  await setUnknownStatus(service, o.turing.id, 'mystery_stage', 'awaiting_courier', 'mystery_stage.walk_in_test.awaiting_courier');
  await setEventTimes(service, o.grace.id, GRACE_EVENT_TIMES);
  const created: [keyof typeof o, string][] = [
    ['grace', '2026-05-06T09:00:00.000Z'],
    ['turing', '2026-05-05T09:00:00.000Z'],
    ['johnson', '2026-05-04T09:00:00.000Z'],
    ['dijkstra', '2026-05-03T09:00:00.000Z'],
    ['liskov', '2026-05-02T09:00:00.000Z'],
    ['lamarr', '2026-05-01T09:00:00.000Z'],
  ];
  for (const [key, instant] of created) await setCreatedAt(service, o[key].id, instant);

  // Another team with one completed order and nothing that needs attention.
  const [otherUser] = await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-other-1' }]);
  const done = await service.placeOrder(service.otherTeam, otherUser!, { patient_details: patient('Mary', 'Jackson') });
  await service.driveOrder(service.otherTeam, done.id, 'completed.walk_in_test.completed');
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.useBffApp(null);
  stack.reset();
});

const rows = () => screen.getAllByRole('row').slice(1); // minus the header row
const ordersCalls = () => stack.requests.filter((r) => r.method === 'GET' && r.path === '/api/orders');

describe('orders list', () => {
  it('shows each order with coloured status chips, and an unknown status raw on a neutral chip', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, '/orders');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(rows()).toHaveLength(6);
    expect(rows().map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual([
      'Grace Hopper',
      'Alan Turing',
      'Katherine Johnson',
      'Edsger Dijkstra',
      'Barbara Liskov',
      'Hedy Lamarr',
    ]);

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
    expect(ordersCalls()[0]?.query.get('sort')).toBe('["created_at","DESC"]');
    // Lab operations may not place orders.
    expect(screen.queryByRole('link', { name: /create/i })).not.toBeInTheDocument();
  });

  it('has a "Needs attention" view of orders with problems in transit or failures', async () => {
    await stack.signInAs('lab_ops');
    const { user } = renderOnStack(stack, '/orders');
    await screen.findByText('Grace Hopper');
    await user.click(screen.getByRole('tab', { name: /Needs attention/ }));

    // Wait for the narrowed page itself, not just for the old rows to go (a loading state also hides them).
    await waitFor(() => {
      expect(screen.queryByText('Alan Turing')).not.toBeInTheDocument();
      expect(rows()).toHaveLength(2);
    });
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('Edsger Dijkstra')).toBeInTheDocument();
    expect(JSON.parse(ordersCalls().at(-1)!.query.get('filter')!)).toEqual({ needs_attention: true });
    expect(screen.getByRole('tab', { name: /Needs attention/ })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'All orders' }));
    expect(await screen.findByText('Alan Turing')).toBeInTheDocument();
    // The unfiltered page may first come from react-query's cache; its refetch follows.
    await waitFor(() => expect(JSON.parse(ordersCalls().at(-1)!.query.get('filter')!)).toEqual({}));
  });

  it('says when nothing needs attention', async () => {
    // Another team's console: its only order is completed.
    stack.useBffApp(await stack.bff.buildApp({ serviceApiKey: stack.service.otherTeam.apiKey }));
    await stack.signInAs('admin');
    renderOnStack(stack, '/orders?filter=%7B%22needs_attention%22%3Atrue%7D');
    expect(await screen.findByText('No order needs attention right now.')).toBeInTheDocument();
    expect(JSON.parse(ordersCalls().at(-1)!.query.get('filter')!)).toEqual({ needs_attention: true });
  });

  it('searches, and sorts by patient name and status as the BFF allows', async () => {
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, '/orders');
    await screen.findByText('Grace Hopper');
    await user.type(screen.getByRole('textbox', { name: 'Search orders' }), 'turing');
    await waitFor(() => expect(screen.queryByText('Grace Hopper')).not.toBeInTheDocument());
    expect(screen.getByText('Alan Turing')).toBeInTheDocument();
    expect(rows()).toHaveLength(1);
    expect(JSON.parse(ordersCalls().at(-1)!.query.get('filter')!)).toEqual({ q: 'turing' });

    const sortable = screen.getAllByRole('columnheader').filter((h) => h.querySelector('.MuiTableSortLabel-root'));
    expect(sortable.map((h) => h.textContent?.replace(/Times are shown.*$/, ''))).toEqual(['Created', 'Patient', 'Status']);
    await user.click(within(sortable[2]!).getByRole('button'));
    await waitFor(() => expect(ordersCalls().at(-1)?.query.get('sort')).toMatch(/^\["last_status",/));
    // The BFF takes the sort (a sort it refuses would be a 400 and an error, not the row).
    expect(await screen.findByText('Alan Turing')).toBeInTheDocument();
  });

  it('filters by a created date range in the viewer’s own days', async () => {
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, '/orders');
    await screen.findByText('Grace Hopper');
    await user.click(screen.getByRole('button', { name: /add filter/i }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Created from' }));
    fireEvent.change(await screen.findByLabelText('Created from'), { target: { value: '2026-05-05' } });
    await waitFor(() => expect(JSON.parse(ordersCalls().at(-1)!.query.get('filter')!)).toHaveProperty('start_date'));
    const filter = JSON.parse(ordersCalls().at(-1)!.query.get('filter')!) as { start_date: string };
    // Local midnight of 5 May, sent as an instant.
    expect(filter.start_date).toBe(new Date(2026, 4, 5, 0, 0, 0, 0).toISOString());
    await waitFor(() => expect(screen.queryByText('Katherine Johnson')).not.toBeInTheDocument());
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument(); // created 6 May
  });
});

describe('an order page', () => {
  it('shows the timeline, patient, address with access notes, lab account and clinical notes', async () => {
    await stack.signInAs('lab_ops');
    renderOnStack(stack, `/orders/${o.grace.id}/show`);

    const timeline = await screen.findByRole('region', { name: 'Order timeline' });
    const steps = within(timeline).getAllByRole('listitem');
    // The service's walk of a test kit to a problem on its way to the lab.
    expect(steps.map((s) => within(s).getByText(/./, { selector: '.MuiChip-label' }).textContent)).toEqual([
      'Ordered',
      'Requisition created',
      'In transit to patient',
      'Out for delivery',
      'With patient',
      'In transit to lab',
      'Problem in transit to lab',
    ]);
    // Each step carries its time, in the viewer's zone.
    const when = steps[6]!.querySelector('time')!;
    expect(when).toHaveAttribute('datetime', '2026-05-08T12:30:00.000Z');
    expect(when.textContent).toBe(new Date('2026-05-08T12:30:00.000Z').toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

    const patientRegion = screen.getByRole('region', { name: 'Patient' });
    expect(within(patientRegion).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(patientRegion).getByText('1906-12-09')).toBeInTheDocument();
    const addressRegion = screen.getByRole('region', { name: 'Address' });
    expect(within(addressRegion).getByText('1 Main Street')).toBeInTheDocument();
    expect(within(addressRegion).getByText('Austin, TX 73301')).toBeInTheDocument();
    expect(within(addressRegion).getByTestId('access-notes')).toHaveTextContent('Gate code 4711; park behind the building');
    expect(screen.getByTestId('clinical-notes').textContent).toBe('Repeat the kit if the sample is lost.\nCall before shipping.');
    // The service picked the team's Quest account for a Quest test.
    const lab = screen.getByRole('region', { name: 'Lab account' });
    expect(await within(lab).findByText(/Demo Health Quest Client Bill/)).toBeInTheDocument();

    const download = screen.getByRole('link', { name: /Download requisition/ });
    expect(download).toHaveAttribute('href', `/api/orders/${o.grace.id}/requisition.pdf`);
    // Lab operations read orders but do not cancel them.
    expect(screen.queryByRole('button', { name: /Cancel order/ })).not.toBeInTheDocument();
  });

  it('shows an unknown event status raw in the timeline', async () => {
    await stack.signInAs('admin');
    renderOnStack(stack, `/orders/${o.turing.id}/show`);
    const timeline = await screen.findByRole('region', { name: 'Order timeline' });
    expect(within(timeline).getByText('awaiting_courier')).toBeInTheDocument();
    expect(within(timeline).getByTitle('mystery_stage.walk_in_test.awaiting_courier')).toBeInTheDocument();
  });

  it('cancels an open order after confirmation, and only then shows it cancelled', async () => {
    await stack.signInAs('coordinator');
    const { user } = renderOnStack(stack, `/orders/${o.liskov.id}/show`);
    await screen.findByRole('region', { name: 'Order timeline' });
    await user.click(await screen.findByRole('button', { name: /Cancel order/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Cancel this order?')).toBeInTheDocument();
    expect(stack.requests.some((r) => r.path.endsWith('/cancel'))).toBe(false);
    await fill(user, within(dialog).getByLabelText(/Reason/), 'Placed twice');
    await user.click(within(dialog).getByRole('button', { name: /Cancel order/ }));

    await waitFor(() => expect(stack.requests.some((r) => r.method === 'POST' && r.path === `/api/orders/${o.liskov.id}/cancel`)).toBe(true));
    const cancel = stack.requests.find((r) => r.path.endsWith('/cancel'))!;
    expect(cancel.headers.get('x-csrf-token')).toBeTruthy();
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Order' });
    await waitFor(() => expect(within(summary).getAllByText('Cancelled').length).toBeGreaterThan(0));
    // A cancelled order is final: no more cancel button.
    await waitFor(() => expect(screen.queryByRole('button', { name: /Cancel order/ })).not.toBeInTheDocument());
  });

  it('offers no cancel button on a final order, even to coordinators', async () => {
    await stack.signInAs('coordinator');
    renderOnStack(stack, `/orders/${o.johnson.id}/show`);
    await screen.findByRole('region', { name: 'Order timeline' });
    expect(screen.getByRole('link', { name: /Download requisition/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Cancel order/ })).not.toBeInTheDocument();
  });

  it('says why a cancel failed, and leaves the order as it was', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await stack.signInAs('admin');
    const { user } = renderOnStack(stack, `/orders/${o.lamarr.id}/show`);
    await screen.findByRole('region', { name: 'Order timeline' });
    await user.click(await screen.findByRole('button', { name: /Cancel order/ }));
    const dialog = await screen.findByRole('dialog');
    // Someone else completed it meanwhile (here: the service's sandbox, while the dialog is open).
    await stack.service.driveOrder(stack.service.team, o.lamarr.id, 'completed.walk_in_test.completed');
    await fill(user, within(dialog).getByLabelText(/Reason/), 'Placed twice');
    await user.click(within(dialog).getByRole('button', { name: /Cancel order/ }));
    expect(await screen.findByText(/^Could not cancel the order: .*the order is already completed \(completed\)/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Order' })).getByText('Ordered')).toBeInTheDocument();
  });
});

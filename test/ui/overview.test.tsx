/**
 * The overview ("What needs you") on the real stack: signing in lands on it, it counts the team's
 * queues for the member's role, the menu carries the same counts as badges (from the same request),
 * a count opens its filtered list, a reviewer sees the review queue alone, and a queue the service
 * could not count says why beside the others until "Try again" counts it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFailingProxy } from '../bff/failingProxy';
import { labTestId } from '../bff/ordersFixture';
import { renderOnStack, signIn } from './renderApp';
import { startRealStack, STAFF_PASSWORD, staffEmail, type RealStack } from './realStack';
import { placeHomeOrderAt, requestThroughService } from './seed/appointments';
import { patient } from './seed/orders';
import { readReport } from './seed/parser';

let stack: RealStack;
const KIT = labTestId('quest', 'Thyroid Check');
const CHICAGO = { first_line: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zip: '60601' };

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  const { team } = service;
  const [userId] = (await service.addUsers(team, [{ clientUserId: 'pt-overview-ui' }])) as [string];
  // One order lost on its way, one fine; one appointment request waiting for a time; one report to review.
  const lost = await service.placeOrder(team, userId, { lab_test_id: KIT, patient_details: patient('Edsger', 'Dijkstra') });
  await service.driveOrder(team, lost.id, 'failed.testkit.lost');
  await service.placeOrder(team, userId, { lab_test_id: KIT, patient_details: patient('Barbara', 'Liskov') });
  const home = await placeHomeOrderAt(service, team, userId, ['Rosalind', 'Franklin'], CHICAGO);
  await requestThroughService(service, team, home.id, CHICAGO, 'provider_1');
  await readReport(service, team, userId);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

const card = (title: string) => screen.getByRole('region', { name: title });
const overviewCalls = () => stack.requests.filter((r) => r.path === '/api/overview');

describe('the overview', () => {
  it('is where sign-in lands: the coordinator’s queues with counts, menu badges, and a count that opens its list', async () => {
    const { user } = renderOnStack(stack);
    await signIn(user, staffEmail('coordinator'), STAFF_PASSWORD);

    expect(await screen.findByRole('heading', { name: 'What needs you' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Orders needing attention' });
    expect(within(card('Orders needing attention')).getByLabelText('Orders needing attention: 1')).toBeInTheDocument();
    expect(within(card('Appointment requests waiting for a time')).getByLabelText('Appointment requests waiting for a time: 1')).toBeInTheDocument();
    expect(within(card('Critical results to acknowledge')).getByText('Nothing waiting')).toBeInTheDocument();
    expect(within(card('Appointments today')).getByText('No appointments today or tomorrow')).toBeInTheDocument();
    // Reviewing reports and webhooks are not a coordinator's queues.
    expect(screen.queryByRole('region', { name: 'Lab reports awaiting review' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Failed webhook deliveries' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^updated (just now|\d+ s ago)$/);

    // The menu's badges come from the same answer: one request serves the page and the menu.
    expect(await screen.findByRole('menuitem', { name: /Orders.*1 need attention/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Appointments.*1 waiting for a time/ })).toBeInTheDocument();
    expect(overviewCalls()).toHaveLength(1);
    expect(overviewCalls()[0]!.query.get('time_zone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

    await user.click(within(card('Orders needing attention')).getByRole('link', { name: 'Lost: 1' }));
    expect(await screen.findByText('Dijkstra', { exact: false })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(1));
    const listed = stack.requests.filter((r) => r.path === '/api/orders').at(-1)!;
    expect(JSON.parse(listed.query.get('filter')!)).toEqual({ needs_attention: true, status: ['lost'] });
  });

  it('says why a queue could not be counted, keeps the other cards, and counts it on "Try again"', async () => {
    const failing = ['/v2/webhooks/endpoints'];
    const proxy = await startFailingProxy(stack.service.url, failing);
    const app = await stack.bff.buildApp({ serviceBaseUrl: proxy.url });
    try {
      stack.useBffApp(app);
      await stack.signInAs('admin');
      const { user } = renderOnStack(stack);
      const webhooks = await screen.findByRole('region', { name: 'Failed webhook deliveries' });
      expect(within(webhooks).getByRole('alert')).toHaveTextContent(/^Could not count: .+ — Try again$/);
      expect(within(card('Orders needing attention')).getByLabelText('Orders needing attention: 1')).toBeInTheDocument();
      expect(within(card('Lab reports awaiting review')).getByLabelText('Lab reports awaiting review: 1')).toBeInTheDocument();

      failing.length = 0; // the service answers again
      await user.click(within(webhooks).getByRole('button', { name: 'Try again' }));
      // The counted card replaces the one that could not count: look it up again once it is there.
      expect(await screen.findByText('Every delivery arrived')).toBeInTheDocument();
      expect(within(card('Failed webhook deliveries')).getByLabelText('Failed webhook deliveries: 0')).toBeInTheDocument();
      expect(within(card('Failed webhook deliveries')).queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      stack.useBffApp(null);
      await app.close();
      await proxy.close();
    }
  });

  it('shows a reviewer the review queue alone, whose button opens the queue', async () => {
    await stack.signInAs('reviewer');
    const { user } = renderOnStack(stack);
    const review = await screen.findByRole('region', { name: 'Lab reports awaiting review' });
    expect(within(review).getByLabelText('Lab reports awaiting review: 1')).toBeInTheDocument();
    expect(within(review).getByText(/^Oldest waiting since /)).toBeInTheDocument();
    expect(screen.getAllByRole('region')).toHaveLength(1);
    expect(screen.getByRole('menuitem', { name: /Lab reports.*1 awaiting review/ })).toBeInTheDocument();

    await user.click(within(review).getByRole('link', { name: 'Open the review queue' }));
    expect(await screen.findByRole('tab', { name: /review queue/i, selected: true })).toBeInTheDocument();
  });
});

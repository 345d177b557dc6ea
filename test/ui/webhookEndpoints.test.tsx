/**
 * Webhook endpoints on the real stack: admins only; creating one shows its secret once; a refused
 * URL shows on the URL field; the endpoint page reveals the secret on demand, turns delivery off
 * and on, and lists deliveries (partial pagination) with their attempts and replay. Endpoints are
 * made through the real service (one disabled by the service itself after a 410), delivery logs
 * written into its tables (test/ui/seed/webhooks.ts).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fill, renderOnStack } from './renderApp';
import { failNext, startRealStack, type RealStack } from './realStack';
import { createEndpoint, endpointGone, seedDeliveries, type SeededDelivery, type ServiceEndpoint } from './seed/webhooks';
import type { StaffKey } from '../bff/harness';

let stack: RealStack;
let ENDPOINT: ServiceEndpoint;

const FAILED: SeededDelivery = {
  id: 'd0d0d0d0-0000-4000-8000-000000000001',
  event_type: 'labtest.order.created',
  subject_id: 'order-1',
  status: 'failed',
  created_at: '2026-05-04T10:00:00.000Z',
  attempts: [
    { attempted_at: '2026-05-04T10:00:00.000Z', duration_ms: 10_000, status_code: null, error: 'timeout' },
    { attempted_at: '2026-05-04T10:05:00.000Z', duration_ms: 87, status_code: 500, error: 'HTTP 500' },
  ],
};
const DELIVERED: SeededDelivery = {
  id: 'd0d0d0d0-0000-4000-8000-000000000002',
  event_type: 'labtest.order.updated',
  subject_id: 'order-1',
  status: 'succeeded',
  created_at: '2026-05-03T10:00:00.000Z',
  attempts: [{ attempted_at: '2026-05-03T10:00:00.500Z', duration_ms: 120, status_code: 200, error: null }],
};
const OLDER: SeededDelivery[] = Array.from({ length: 30 }, (_, i) => ({
  id: `d0d0d0d0-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
  event_type: 'labtest.appointment.updated',
  subject_id: `appointment-${i}`,
  status: 'succeeded',
  created_at: `2026-04-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`,
  attempts: [{ attempted_at: `2026-04-${String(i + 1).padStart(2, '0')}T10:00:00.500Z`, duration_ms: 120, status_code: 200, error: null }],
}));

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  const [patient] = (await service.addUsers(service.team, [{ clientUserId: 'pt-7f3a2c91', sources: ['oura'] }])) as [string];
  // First: the endpoint whose receiver answered 410 (before any other endpoint could get the event).
  await endpointGone(service, service.team, patient, 'https://old.example.com/hook');
  ENDPOINT = await createEndpoint(service, service.team, {
    url: 'https://hooks.example.com/labdesk',
    event_types: ['labtest.order.*', 'lab_report.parsing_job.updated'],
    description: 'Our order sync',
  });
  // The log, oldest event first: 30 older deliveries, then DELIVERED, then FAILED (the newest).
  await seedDeliveries(service, service.team, ENDPOINT.id, [...OLDER, DELIVERED, FAILED]);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

async function open(path: string, who: StaffKey = 'admin') {
  await stack.signInAs(who);
  return renderOnStack(stack, path);
}

/** The log's delivery rows (DataTable keeps a collapsed expand row under each). */
const deliveryRows = (log: HTMLElement) =>
  within(log)
    .getAllByRole('row')
    .filter((r) => r.closest('tbody') && r.classList.contains('RaDataTable-row'));

/** The CSRF token of the browser's session, as the BFF gives it to the page. */
async function sessionCsrfToken(): Promise<string> {
  const me = await stack.bff.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: stack.cookie() } });
  return (me.json() as { csrfToken: string }).csrfToken;
}

const calls = (method: string, path: string | RegExp) =>
  stack.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));

describe('webhook endpoints', () => {
  it('are for admins only', async () => {
    await open('/', 'coordinator');
    expect(await screen.findByRole('menuitem', { name: /Lab reports/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Webhooks/ })).not.toBeInTheDocument();
    expect(stack.requests.some((r) => r.path.startsWith('/api/webhook-'))).toBe(false);
  });

  it('lists the team’s endpoints with their event types and status', async () => {
    await open('/webhook-endpoints');
    expect(await screen.findByRole('menuitem', { name: /Webhooks/ })).toBeInTheDocument();
    const row = (await screen.findByText('https://hooks.example.com/labdesk')).closest('tr')!;
    expect(within(row).getByText('labtest.order.*')).toBeInTheDocument();
    expect(within(row).getByText('lab_report.parsing_job.updated')).toBeInTheDocument();
    expect(within(row).getByText('Enabled')).toBeInTheDocument();
    const gone = screen.getByText('https://old.example.com/hook').closest('tr')!;
    // The service's reason ("gone: the receiver answered 410") in words a person reads.
    expect(within(gone).getByText('Disabled: the receiver answered 410 Gone')).toBeInTheDocument();
    expect(within(gone).getByText('All events')).toBeInTheDocument();
  });

  it('shows the new endpoint’s secret once, with a copy button, then opens the endpoint without it', async () => {
    const { user } = await open('/webhook-endpoints/create');
    await fill(user, await screen.findByRole('textbox', { name: 'URL' }), 'https://receiver.example.org/hooks');
    const types = screen.getByRole('combobox', { name: 'Event types' });
    await fill(user, types, 'labtest.order.*');
    await user.keyboard('{Enter}');
    await fill(user, types, 'lab_report.parsing_job.updated');
    await user.keyboard('{Enter}');
    await fill(user, screen.getByRole('textbox', { name: 'Description' }), 'Parsed reports to the EHR bridge');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Endpoint created: copy its signing secret' });
    const secret = within(dialog).getByTestId('webhook-secret').textContent!;
    expect(secret).toMatch(/^whsec_/);
    expect(within(dialog).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(within(dialog).getByText(/It will not be shown again/)).toBeInTheDocument();

    const [created] = calls('POST', '/api/webhook-endpoints');
    expect(created!.body).toEqual({
      url: 'https://receiver.example.org/hooks',
      event_types: ['labtest.order.*', 'lab_report.parsing_job.updated'],
      description: 'Parsed reports to the EHR bridge',
    });
    expect(created!.headers.get('x-csrf-token')).toBe(await sessionCsrfToken());

    await user.click(within(dialog).getByRole('button', { name: 'I have stored the secret' }));
    const details = await screen.findByRole('region', { name: 'Endpoint' });
    expect(within(details).getByText('https://receiver.example.org/hooks')).toBeInTheDocument();
    expect(screen.queryByText(secret)).not.toBeInTheDocument();

    // Shown again only on demand (an audited call).
    await user.click(within(details).getByRole('button', { name: 'Reveal secret' }));
    expect(await within(details).findByText(secret)).toBeInTheDocument();
    expect(calls('GET', /\/secret$/)).toHaveLength(1);
  });

  it('shows a refused URL (a private address) on the URL field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // react-admin logs failed calls in development
    // The test service allows private URLs (its webhook receivers listen on 127.0.0.1), so the
    // refusal is canned: the real BFF's answer to the service's 422 at body.url, word for word.
    const refusal = 'must not point at a private, loopback or link-local address';
    failNext(stack, 'post', '/api/webhook-endpoints', 422, { message: `url: ${refusal}`, errors: { url: refusal } });
    const { user } = await open('/webhook-endpoints/create');
    const url = await screen.findByRole('textbox', { name: 'URL' });
    await fill(user, url, 'http://192.168.1.10/hook');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const control = url.closest('.MuiFormControl-root') as HTMLElement;
    expect(await within(control).findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // One submission, answered with the refusal (canned: the real BFF never saw it).
    expect(calls('POST', '/api/webhook-endpoints').map((r) => r.canned)).toEqual([true]);
  });

  it('says why when the team has its 20 endpoints already (an error with no field of its own)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // react-admin logs failed calls in development
    // Another team's console (a BFF with that team's key), whose team has its 20 endpoints.
    const { service } = stack;
    for (let i = 0; i < 20; i++) await createEndpoint(service, service.otherTeam, { url: `https://full-${i}.example.org/h` });
    stack.useBffApp(await stack.bff.buildApp({ serviceApiKey: service.otherTeam.apiKey }));
    try {
      const { user } = await open('/webhook-endpoints/create');
      await fill(user, await screen.findByRole('textbox', { name: 'URL' }), 'https://x.example.org/h');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      // The service's 422 at `body` (no field of the form): the BFF's message names it.
      expect(await screen.findByText('body: a team may have at most 20 webhook endpoints')).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(calls('POST', '/api/webhook-endpoints')).toHaveLength(1);
    } finally {
      stack.useBffApp(null);
    }
  });

  it('checks the URL’s form and the event types before sending', async () => {
    const { user } = await open('/webhook-endpoints/create');
    await fill(user, await screen.findByRole('textbox', { name: 'URL' }), 'ftp://user:pw@example.com/x');
    await fill(user, screen.getByRole('combobox', { name: 'Event types' }), 'Order Created');
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Use an http or https URL')).toBeInTheDocument();
    expect(screen.getByText(/"Order Created" is not an event type/)).toBeInTheDocument();
    expect(calls('POST', '/api/webhook-endpoints')).toHaveLength(0);
  });
});

describe('the team’s result webhooks', () => {
  it('lets an admin announce partial results, a setting the service keeps', async () => {
    const { user } = await open('/webhook-endpoints');
    const region = await screen.findByRole('region', { name: 'Result webhooks' });
    const toggle = within(region).getByRole('switch', { name: 'Announce partial results' });
    await waitFor(() => expect(toggle).not.toBeDisabled());
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(await screen.findByText('Partial results will be announced')).toBeInTheDocument();
    const settings = await stack.service.call<{ partial_results_webhooks: boolean }>(stack.service.team, 'GET', '/v2/team/settings');
    expect(settings.body.partial_results_webhooks).toBe(true);
    await user.click(toggle);
    await waitFor(async () => expect((await stack.service.call<{ partial_results_webhooks: boolean }>(stack.service.team, 'GET', '/v2/team/settings')).body.partial_results_webhooks).toBe(false));
  });
});

describe('an endpoint’s page', () => {
  it('is where the overview’s failed-deliveries card leads: its log filtered to the failed ones', async () => {
    const { user } = await open('/');
    const card = await screen.findByRole('region', { name: 'Failed webhook deliveries' });
    // Two endpoints have failed deliveries (this one and the one whose receiver is gone): one link each, named by URL.
    const toFailed = await within(card).findByRole('link', { name: 'https://hooks.example.com/labdesk: 1' });
    expect(toFailed).toHaveAttribute('href', `#/webhook-endpoints/${ENDPOINT.id}/show?deliveries=failed`);
    await user.click(toFailed);
    const log = await screen.findByRole('region', { name: 'Deliveries' });
    expect(await within(log).findByText('labtest.order.created')).toBeInTheDocument();
    expect(within(log).queryByText('labtest.order.updated')).not.toBeInTheDocument();
    expect(JSON.parse(calls('GET', '/api/webhook-deliveries').at(-1)!.query.get('filter')!)).toEqual({ endpoint_id: ENDPOINT.id, status: 'failed' });
  });

  it('lists deliveries newest first with their attempts, and replays a failed one', async () => {
    const { user } = await open(`/webhook-endpoints/${ENDPOINT.id}/show`);
    const log = await screen.findByRole('region', { name: 'Deliveries' });
    const failedRow = (await within(log).findByText('labtest.order.created')).closest('tr')!;
    expect(within(failedRow).getByText('Failed')).toBeInTheDocument();
    expect(within(failedRow).getByText('2 (last: 500)')).toBeInTheDocument();
    const [list] = calls('GET', '/api/webhook-deliveries');
    expect(JSON.parse(list!.query.get('filter')!)).toEqual({ endpoint_id: ENDPOINT.id });
    expect(list!.query.get('sort')).toBe('["id","DESC"]');

    // The attempts, in the viewer's time.
    await user.click(within(failedRow).getByText('Failed'));
    const attempts = await within(log).findByRole('table', { name: /Attempts of delivery d0d0d0d0/ });
    const rows = within(attempts).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('No answer')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('timeout')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('10000 ms')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('500')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(new Date('2026-05-04T10:05:00.000Z').toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }))).toBeInTheDocument();

    await user.click(within(failedRow).getByRole('button', { name: 'Replay labtest.order.created delivery' }));
    expect(await screen.findByText('Delivery queued again')).toBeInTheDocument();
    const [replay] = calls('POST', /\/replay$/);
    expect(replay!.path).toBe(`/api/webhook-endpoints/${ENDPOINT.id}/deliveries/${FAILED.id}/replay`);
    expect(replay!.headers.get('x-csrf-token')).toBe(await sessionCsrfToken());
    await waitFor(() => expect(within(screen.getByText('labtest.order.created').closest('tr')!).getByText('Pending')).toBeInTheDocument());
  });

  it('pages the delivery log without a total', async () => {
    const { user } = await open(`/webhook-endpoints/${ENDPOINT.id}/show`);
    const log = await screen.findByRole('region', { name: 'Deliveries' });
    await within(log).findByText('labtest.order.created');
    expect(deliveryRows(log)).toHaveLength(25);
    await user.click(within(log).getByRole('button', { name: /next page/i }));
    await within(log).findByText('appointment-0');
    expect(calls('GET', '/api/webhook-deliveries').at(-1)!.query.get('range')).toBe('[25,49]');
    await waitFor(() => expect(deliveryRows(log)).toHaveLength(7));
    expect(within(log).getByRole('button', { name: /next page/i })).toBeDisabled();
  });

  it('disables the endpoint after a confirmation, and enables it again', async () => {
    const { user } = await open(`/webhook-endpoints/${ENDPOINT.id}/show`);
    const details = await screen.findByRole('region', { name: 'Endpoint' });
    expect(within(details).getByText('Enabled')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable' }));
    expect(await within(details).findByText('Disabled: disabled by the team')).toBeInTheDocument();
    expect(calls('PUT', `/api/webhook-endpoints/${ENDPOINT.id}`)[0]!.body).toEqual({ disabled: true });

    // Once the confirmation has closed (it hides the page from assistive technology while open).
    await user.click(await screen.findByRole('button', { name: 'Enable' }));
    expect(await within(details).findByText('Enabled')).toBeInTheDocument();
    expect(calls('PUT', `/api/webhook-endpoints/${ENDPOINT.id}`)[1]!.body).toEqual({ disabled: false });
  });

  it('deletes the endpoint after a confirmation', async () => {
    const { user } = await open(`/webhook-endpoints/${ENDPOINT.id}/show`);
    await screen.findByRole('region', { name: 'Endpoint' });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /Confirm/ }));
    await waitFor(() => expect(calls('DELETE', `/api/webhook-endpoints/${ENDPOINT.id}`)).toHaveLength(1));
    expect(await screen.findByText('https://old.example.com/hook')).toBeInTheDocument();
    expect(screen.queryByText('https://hooks.example.com/labdesk')).not.toBeInTheDocument();
  });
});

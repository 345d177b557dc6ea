/**
 * Webhook endpoints against the fake BFF: admins only; creating one shows its secret once; a
 * refused URL shows on the URL field; the endpoint page reveals the secret on demand, turns
 * delivery off and on, and lists deliveries (partial pagination) with their attempts and replay.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, CSRF_TOKEN, makeDelivery, makeEndpoint, SAMPLE_USERS, type FakeBffOptions, type RecordedRequest, type StaffAccount } from './fakeBff';
import { renderApp } from './renderApp';

const account = (role: string): StaffAccount => ({
  email: `${role}@labdesk.test`,
  password: 'a long enough password',
  user: { id: `staff-${role}`, email: `${role}@labdesk.test`, name: role, role },
});

const ENDPOINT = makeEndpoint({
  id: 'e0e0e0e0-0000-4000-8000-000000000001',
  url: 'https://hooks.example.com/labdesk',
  event_types: ['labtest.order.*', 'lab_report.parsing_job.updated'],
  description: 'Our order sync',
});
const GONE = makeEndpoint({ id: 'e0e0e0e0-0000-4000-8000-000000000002', url: 'https://old.example.com/hook', disabled_at: '2026-05-03T00:00:00.000Z', disabled_reason: 'gone' });

const FAILED = makeDelivery({
  id: 'd0d0d0d0-0000-4000-8000-000000000001',
  endpoint_id: ENDPOINT.id,
  event_type: 'labtest.order.created',
  status: 'failed',
  attempt_count: 2,
  last_status_code: 500,
  delivered_at: null,
  created_at: '2026-05-04T10:00:00.000Z',
  attempts: [
    { attempted_at: '2026-05-04T10:00:00.000Z', duration_ms: 10_000, status_code: null, error: 'timeout' },
    { attempted_at: '2026-05-04T10:05:00.000Z', duration_ms: 87, status_code: 500, error: 'HTTP 500' },
  ],
});
const DELIVERED = makeDelivery({ id: 'd0d0d0d0-0000-4000-8000-000000000002', endpoint_id: ENDPOINT.id, created_at: '2026-05-03T10:00:00.000Z' });
const OLDER = Array.from({ length: 30 }, (_, i) =>
  makeDelivery({
    id: `d0d0d0d0-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
    endpoint_id: ENDPOINT.id,
    event_type: `labtest.appointment.updated`,
    subject_id: `appointment-${i}`,
    created_at: `2026-04-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`,
  }),
);

function open(path: string, options: FakeBffOptions = {}, staff: StaffAccount = ADMIN) {
  return renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [staff], webhookEndpoints: [ENDPOINT, GONE], webhookDeliveries: [FAILED, DELIVERED], ...options }, path);
}

/** The log's delivery rows (DataTable keeps a collapsed expand row under each). */
const deliveryRows = (log: HTMLElement) =>
  within(log)
    .getAllByRole('row')
    .filter((r) => r.closest('tbody') && r.classList.contains('RaDataTable-row'));

const calls = (requests: RecordedRequest[], method: string, path: string | RegExp) =>
  requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));

describe('webhook endpoints', () => {
  it('are for admins only', async () => {
    const { bff } = open('/', {}, account('coordinator'));
    expect(await screen.findByRole('menuitem', { name: /Lab reports/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Webhooks/ })).not.toBeInTheDocument();
    expect(bff.requests.some((r) => r.path.startsWith('/api/webhook-'))).toBe(false);
  });

  it('lists the team’s endpoints with their event types and status', async () => {
    open('/webhook-endpoints');
    expect(await screen.findByRole('menuitem', { name: /Webhooks/ })).toBeInTheDocument();
    const row = (await screen.findByText('https://hooks.example.com/labdesk')).closest('tr')!;
    expect(within(row).getByText('labtest.order.*')).toBeInTheDocument();
    expect(within(row).getByText('lab_report.parsing_job.updated')).toBeInTheDocument();
    expect(within(row).getByText('Enabled')).toBeInTheDocument();
    const gone = screen.getByText('https://old.example.com/hook').closest('tr')!;
    expect(within(gone).getByText('Disabled: the receiver answered 410 Gone')).toBeInTheDocument();
    expect(within(gone).getByText('All events')).toBeInTheDocument();
  });

  it('shows the new endpoint’s secret once, with a copy button, then opens the endpoint without it', async () => {
    const { user, bff } = open('/webhook-endpoints/create');
    await user.type(await screen.findByRole('textbox', { name: 'URL' }), 'https://receiver.example.org/hooks');
    const types = screen.getByRole('combobox', { name: 'Event types' });
    await user.type(types, 'labtest.order.*{Enter}');
    await user.type(types, 'lab_report.parsing_job.updated{Enter}');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Parsed reports to the EHR bridge');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Endpoint created: copy its signing secret' });
    const secret = within(dialog).getByTestId('webhook-secret').textContent!;
    expect(secret).toMatch(/^whsec_/);
    expect(within(dialog).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(within(dialog).getByText(/It will not be shown again/)).toBeInTheDocument();

    const [created] = calls(bff.requests, 'POST', '/api/webhook-endpoints');
    expect(created!.body).toEqual({
      url: 'https://receiver.example.org/hooks',
      event_types: ['labtest.order.*', 'lab_report.parsing_job.updated'],
      description: 'Parsed reports to the EHR bridge',
    });
    expect(created!.headers.get('x-csrf-token')).toBe(CSRF_TOKEN);

    await user.click(within(dialog).getByRole('button', { name: 'I have stored the secret' }));
    const details = await screen.findByRole('region', { name: 'Endpoint' });
    expect(within(details).getByText('https://receiver.example.org/hooks')).toBeInTheDocument();
    expect(screen.queryByText(secret)).not.toBeInTheDocument();

    // Shown again only on demand (an audited call).
    await user.click(within(details).getByRole('button', { name: 'Reveal secret' }));
    expect(await within(details).findByText(secret)).toBeInTheDocument();
    expect(calls(bff.requests, 'GET', /\/secret$/)).toHaveLength(1);
  });

  it('shows a refused URL (a private address) on the URL field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // react-admin logs failed calls in development
    const { user, bff } = open('/webhook-endpoints/create');
    const url = await screen.findByRole('textbox', { name: 'URL' });
    await user.type(url, 'http://192.168.1.10/hook');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const control = url.closest('.MuiFormControl-root') as HTMLElement;
    expect(await within(control).findByText('resolves to a private, loopback or link-local address, which is not allowed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls(bff.requests, 'POST', '/api/webhook-endpoints')).toHaveLength(1);
  });

  it('says why when the team has its 20 endpoints already (an error with no field of its own)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // react-admin logs failed calls in development
    const twenty = Array.from({ length: 20 }, (_, i) => makeEndpoint({ id: `e0e0e0e0-0000-4000-8000-0000000001${String(i).padStart(2, '0')}` }));
    const { user } = open('/webhook-endpoints/create', { webhookEndpoints: twenty });
    await user.type(await screen.findByRole('textbox', { name: 'URL' }), 'https://x.example.org/h');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The team has 20 webhook endpoints already: at most 20 endpoints per team')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('checks the URL’s form and the event types before sending', async () => {
    const { user, bff } = open('/webhook-endpoints/create');
    await user.type(await screen.findByRole('textbox', { name: 'URL' }), 'ftp://user:pw@example.com/x');
    await user.type(screen.getByRole('combobox', { name: 'Event types' }), 'Order Created{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Use an http or https URL')).toBeInTheDocument();
    expect(screen.getByText(/"Order Created" is not an event type/)).toBeInTheDocument();
    expect(calls(bff.requests, 'POST', '/api/webhook-endpoints')).toHaveLength(0);
  });
});

describe('an endpoint’s page', () => {
  it('lists deliveries newest first with their attempts, and replays a failed one', async () => {
    const { user, bff } = open(`/webhook-endpoints/${ENDPOINT.id}/show`);
    const log = await screen.findByRole('region', { name: 'Deliveries' });
    const failedRow = (await within(log).findByText('labtest.order.created')).closest('tr')!;
    expect(within(failedRow).getByText('Failed')).toBeInTheDocument();
    expect(within(failedRow).getByText('2 (last: 500)')).toBeInTheDocument();
    const [list] = calls(bff.requests, 'GET', '/api/webhook-deliveries');
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
    const [replay] = calls(bff.requests, 'POST', /\/replay$/);
    expect(replay!.path).toBe(`/api/webhook-endpoints/${ENDPOINT.id}/deliveries/${FAILED.id}/replay`);
    expect(replay!.headers.get('x-csrf-token')).toBe(CSRF_TOKEN);
    await waitFor(() => expect(within(screen.getByText('labtest.order.created').closest('tr')!).getByText('Pending')).toBeInTheDocument());
  });

  it('pages the delivery log without a total', async () => {
    const { user, bff } = open(`/webhook-endpoints/${ENDPOINT.id}/show`, { webhookDeliveries: [FAILED, DELIVERED, ...OLDER] });
    const log = await screen.findByRole('region', { name: 'Deliveries' });
    await within(log).findByText('labtest.order.created');
    expect(deliveryRows(log)).toHaveLength(25);
    await user.click(within(log).getByRole('button', { name: /next page/i }));
    await within(log).findByText('appointment-0');
    expect(calls(bff.requests, 'GET', '/api/webhook-deliveries').at(-1)!.query.get('range')).toBe('[25,49]');
    await waitFor(() => expect(deliveryRows(log)).toHaveLength(7));
    expect(within(log).getByRole('button', { name: /next page/i })).toBeDisabled();
  });

  it('disables the endpoint after a confirmation, and enables it again', async () => {
    const { user, bff } = open(`/webhook-endpoints/${ENDPOINT.id}/show`);
    const details = await screen.findByRole('region', { name: 'Endpoint' });
    expect(within(details).getByText('Enabled')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable' }));
    expect(await within(details).findByText('Disabled: disabled by the team')).toBeInTheDocument();
    expect(calls(bff.requests, 'PUT', `/api/webhook-endpoints/${ENDPOINT.id}`)[0]!.body).toEqual({ disabled: true });

    // Once the confirmation has closed (it hides the page from assistive technology while open).
    await user.click(await screen.findByRole('button', { name: 'Enable' }, { timeout: 4000 }));
    expect(await within(details).findByText('Enabled')).toBeInTheDocument();
    expect(calls(bff.requests, 'PUT', `/api/webhook-endpoints/${ENDPOINT.id}`)[1]!.body).toEqual({ disabled: false });
  });

  it('deletes the endpoint after a confirmation', async () => {
    const { user, bff } = open(`/webhook-endpoints/${ENDPOINT.id}/show`);
    await screen.findByRole('region', { name: 'Endpoint' });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /Confirm/ }));
    await waitFor(() => expect(calls(bff.requests, 'DELETE', `/api/webhook-endpoints/${ENDPOINT.id}`)).toHaveLength(1));
    expect(await screen.findByText('https://old.example.com/hook')).toBeInTheDocument();
    expect(screen.queryByText('https://hooks.example.com/labdesk')).not.toBeInTheDocument();
  });
});

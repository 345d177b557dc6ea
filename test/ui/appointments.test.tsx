/**
 * The appointments resource against the fake BFF: the list (times in each appointment's own zone),
 * its filters and empty state, the appointment page, and what each role may do.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAppointment, makeOrder, SAMPLE_LAB_TESTS, SAMPLE_USERS, type FakeBffOptions, type RecordedRequest, type StaffAccount } from './fakeBff';
import { renderApp } from './renderApp';

// The runner reads UTC; the patients live in Los Angeles, Chicago and New York.
const runnerZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (runnerZone === undefined) delete process.env.TZ;
  else process.env.TZ = runnerZone;
});

const account = (role: string): StaffAccount => ({
  email: `${role}@labdesk.test`,
  password: 'a long enough password',
  user: { id: `staff-${role}`, email: `${role}@labdesk.test`, name: role, role },
});
const COORDINATOR = account('coordinator');
const LAB_OPS = account('lab_ops');

const atHome = (n: number, first: string, last: string, address: Record<string, string>) =>
  makeOrder({
    id: `0e0e0e0e-0000-4000-8000-0000000000b${n}`,
    created_at: `2026-10-1${n}T09:00:00.000Z`,
    lab_test: SAMPLE_LAB_TESTS[2]!,
    details: { type: 'at_home_phlebotomy', data: null },
    status: 'collecting_sample',
    low_level_status: 'appointment_scheduled',
    patient_details: { first_name: first, last_name: last, dob: '1920-01-01', gender: 'female', phone_number: '+15555550120', email: `${first.toLowerCase()}@example.com` },
    patient_address: { country: 'US', ...address },
  });

const mary = atHome(1, 'Mary', 'Jackson', { first_line: '200 N Spring St', city: 'Los Angeles', state: 'CA', zip: '90012', access_notes: 'Buzz 4B; street parking only' });
const dorothy = atHome(2, 'Dorothy', 'Vaughan', { first_line: '1 E Wacker Dr', city: 'Chicago', state: 'IL', zip: '60601' });
const katherine = atHome(3, 'Katherine', 'Johnson', { first_line: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' });
const annie = atHome(4, 'Annie', 'Easley', { first_line: '21000 Brookpark Rd', city: 'Cleveland', state: 'OH', zip: '44135' });
const christine = atHome(5, 'Christine', 'Darden', { first_line: '1 Langley Blvd', city: 'Hampton', state: 'VA', zip: '23681' });

const APPOINTMENTS = [
  makeAppointment(mary, { appointment_notes: 'Ring twice' }),
  makeAppointment(dorothy, {
    start_at: '2026-10-27T16:00:00.000Z',
    end_at: '2026-10-27T16:30:00.000Z',
    provider: 'provider_2',
    status: 'pending',
    event_status: 'pending',
    can_reschedule: false,
    events: [{ created_at: '2026-10-20T10:00:00.000Z', status: 'pending', data: {} }],
  }),
  makeAppointment(katherine, { start_at: '2026-10-28T14:00:00.000Z', end_at: '2026-10-28T14:30:00.000Z', provider: 'provider_3', status: 'cancelled', event_status: 'cancelled' }),
  makeAppointment(annie, { start_at: null, end_at: null, provider: 'provider_4', status: 'pending', event_status: 'pending', event_data: { requested: true } }),
  makeAppointment(christine, { start_at: '2026-10-29T13:00:00.000Z', end_at: '2026-10-29T13:30:00.000Z', provider: 'provider_9', status: 'no_show', event_status: 'no_show' }),
];
const ORDERS = [mary, dorothy, katherine, annie, christine];

function openAppointments(options: FakeBffOptions = {}, path = '/appointments') {
  return renderApp({ users: SAMPLE_USERS, orders: ORDERS, appointments: APPOINTMENTS, signedIn: true, staff: [COORDINATOR], ...options }, path);
}

const rows = () => screen.getAllByRole('row').slice(1); // minus the header row
const listCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'GET' && r.path === '/api/appointments');
const lastFilter = (requests: RecordedRequest[]) => JSON.parse(listCalls(requests).at(-1)!.query.get('filter')!) as Record<string, unknown>;

describe('appointments list', () => {
  it("shows each draw in its own zone (and the viewer's time), soonest first, with patient, provider, status and order", async () => {
    const { bff } = openAppointments();
    expect(await screen.findByText('Mary Jackson')).toBeInTheDocument();
    expect(rows()).toHaveLength(5);
    expect(listCalls(bff.requests)[0]!.query.get('sort')).toBe('["start_at","ASC"]');

    const first = rows()[0]!;
    expect(within(first).getByText(/^Mon, Oct 26, 2026, 8:00\sAM PDT$/)).toBeInTheDocument();
    expect(within(first).getByText('Your time: Mon, Oct 26, 2026, 3:00 PM UTC')).toBeInTheDocument();
    expect(within(first).getByText('Provider 1')).toBeInTheDocument();
    expect(within(first).getByText('Confirmed').closest('.MuiChip-root')!.className).toMatch(/MuiChip-colorSuccess/);
    const link = within(first).getByRole('link', { name: 'Order 0e0e0e0e' });
    expect(link).toHaveAttribute('href', `#/orders/${mary.id}/show`);

    // Chicago in daylight time; New York; each in its own zone.
    expect(within(rows()[1]!).getByText(/^Tue, Oct 27, 2026, 11:00\sAM CDT$/)).toBeInTheDocument();
    expect(within(rows()[1]!).getByText('Pending')).toBeInTheDocument();
    expect(within(rows()[2]!).getByText(/^Wed, Oct 28, 2026, 10:00\sAM EDT$/)).toBeInTheDocument();

    // A status and a provider this dashboard does not know: shown raw, on a neutral chip.
    const unknown = within(rows()[3]!).getByText('no_show').closest('.MuiChip-root')!;
    expect(unknown.className).toMatch(/MuiChip-outlined/);
    expect(within(rows()[3]!).getByText('provider_9')).toBeInTheDocument();

    // Requested appointments have no time yet, and come last.
    expect(within(rows()[4]!).getByText('Requested, no time yet')).toBeInTheDocument();
    expect(within(rows()[4]!).getByText('Annie Easley')).toBeInTheDocument();
  });

  it('opens an appointment from its row, and its order from the order link', async () => {
    const { user } = openAppointments();
    await user.click(await screen.findByText('Mary Jackson'));
    expect(await screen.findByText('Appointment for Mary Jackson')).toBeInTheDocument();
  });

  it('filters by status, provider and start date', async () => {
    const { bff, user } = openAppointments();
    await screen.findByText('Mary Jackson');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Confirmed' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(lastFilter(bff.requests)).toEqual({ status: ['confirmed'] });
    expect(screen.getByText('Mary Jackson')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Provider' }));
    await user.click(await screen.findByRole('option', { name: 'Provider 2' }));
    await user.keyboard('{Escape}');
    expect(await screen.findByText('No appointments match these filters.')).toBeInTheDocument();
    expect(lastFilter(bff.requests)).toEqual({ status: ['confirmed'], provider: ['provider_2'] });
  });

  it('filters by a start date range in the viewer’s own days', async () => {
    const { bff, user } = openAppointments();
    await screen.findByText('Mary Jackson');
    await user.click(screen.getByRole('button', { name: /add filter/i }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Starts from' }));
    const from = await screen.findByLabelText('Starts from');
    fireEvent.change(from, { target: { value: '2026-10-28' } });
    await waitFor(() => expect(lastFilter(bff.requests)).toHaveProperty('start_date'));
    expect(lastFilter(bff.requests).start_date).toBe(new Date(2026, 9, 28, 0, 0, 0, 0).toISOString());
    // Earlier draws and the request without a time drop out.
    await waitFor(() => expect(screen.queryByText('Mary Jackson')).not.toBeInTheDocument());
    expect(screen.queryByText('Annie Easley')).not.toBeInTheDocument();
    expect(screen.getByText('Katherine Johnson')).toBeInTheDocument();
  });

  it('says where draws are booked when there are none', async () => {
    openAppointments({ appointments: [] });
    expect(await screen.findByText('No appointments yet')).toBeInTheDocument();
    expect(screen.getByText(/Book a draw from an at-home order's page/)).toBeInTheDocument();
    const link = screen.getByRole('link', { name: /At-home orders/ });
    expect(decodeURIComponent(link.getAttribute('href') ?? '')).toBe('#/orders?filter={"collection_method":["at_home_phlebotomy"]}');
  });
});

describe('an appointment page', () => {
  it('shows the details, events, address with access notes, the order, and the actions', async () => {
    openAppointments({}, `/appointments/${mary.id}/show`);
    expect(await screen.findByText('Appointment for Mary Jackson')).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Appointment' });
    expect(within(card).getByText(/^Mon, Oct 26, 2026, 8:00\sAM PDT$/)).toBeInTheDocument();
    expect(within(card).getByText(/Until 8:30\sAM PDT/)).toBeInTheDocument();
    expect(within(card).getByTestId('appointment-notes')).toHaveTextContent('Ring twice');
    expect(within(card).getByText('200 N Spring St')).toBeInTheDocument();
    expect(within(card).getByText('Los Angeles, CA 90012')).toBeInTheDocument();
    expect(within(card).getByTestId('address-access-notes')).toHaveTextContent('Buzz 4B; street parking only');
    const events = within(card).getByRole('list', { name: 'Appointment events' });
    expect(within(events).getAllByRole('listitem').map((li) => li.querySelector('.MuiChip-label')?.textContent)).toEqual(['Reserved', 'Scheduled']);

    const order = screen.getByRole('region', { name: 'Order' });
    expect(within(order).getByRole('link', { name: `Open order ${mary.id}` })).toHaveAttribute('href', `#/orders/${mary.id}/show`);
    expect(within(order).getByText('Appointment scheduled')).toBeInTheDocument();

    // The same actions as on the order page.
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel appointment' })).toBeEnabled();
  });

  it('cancels from the appointment page too', async () => {
    const { bff, user } = openAppointments({}, `/appointments/${mary.id}/show`);
    await user.click(await screen.findByRole('button', { name: 'Cancel appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    await user.click(within(dialog).getByRole('combobox', { name: /Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'Appointment no longer needed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bff.requests.find((r) => r.path === `/api/orders/${mary.id}/appointment/cancel`)?.body).toEqual({ cancellation_reason_id: 'no_longer_needed' });
    // Cancelled: nothing left to move or cancel.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Reschedule' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Appointment' })).getAllByText('Cancelled').length).toBeGreaterThan(0);
  });
});

describe('roles', () => {
  it('lets lab operations see appointments and slots, but not book, move or cancel', async () => {
    const fresh = atHome(6, 'Evelyn', 'Boyd', { first_line: '1 Main Street', city: 'Austin', state: 'TX', zip: '73301', access_notes: 'Side door' });
    const { bff, user } = openAppointments({ staff: [LAB_OPS], orders: [...ORDERS, fresh] });
    expect(await screen.findByRole('menuitem', { name: /Appointments/ })).toBeInTheDocument();
    await user.click(await screen.findByText('Mary Jackson'));
    expect(await screen.findByText('Appointment for Mary Jackson')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reschedule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel appointment' })).not.toBeInTheDocument();

    // An at-home order without an appointment: the times on offer, and no way to book one.
    window.location.hash = `#/orders/${fresh.id}/show`;
    expect(await screen.findByText('Times on offer', {}, { timeout: 5000 })).toBeInTheDocument();
    const zone = await screen.findByTestId('slot-zone');
    expect(zone).toHaveTextContent("Times in America/Chicago (CDT/CST), the patient's time zone");
    const monday = screen.getByRole('listitem', { name: 'Mon, Oct 26' });
    expect(within(monday).getByLabelText(/^10:00\sAM CDT, \$35, 3 places left, Provider 1$/)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Days' })).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Book' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request an appointment' })).not.toBeInTheDocument();
    expect(screen.getByText(/your role can see the times on offer but not book them/)).toBeInTheDocument();
    expect(bff.requests.some((r) => r.method === 'POST' && /\/appointment\/(book|request|reschedule|cancel)$/.test(r.path))).toBe(false);
  });

  it('gives reviewers no appointments at all', async () => {
    openAppointments({ staff: [account('reviewer')] }, '/');
    expect(await screen.findByText('reviewer')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: /Appointments/ })).not.toBeInTheDocument());
  });

  it('shows coordinators the scheduling section only on at-home orders', async () => {
    const walkIn = makeOrder({ id: '0e0e0e0e-0000-4000-8000-0000000000c1' });
    const { bff } = openAppointments({ orders: [...ORDERS, walkIn] }, `/orders/${walkIn.id}/show`);
    expect(await screen.findByRole('region', { name: 'Order timeline' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'At-home draw' })).not.toBeInTheDocument();
    expect(bff.requests.some((r) => r.path.startsWith('/api/appointments') || r.path.includes('/appointment/'))).toBe(false);
  });
});

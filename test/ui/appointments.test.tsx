/**
 * The appointments resource on the real stack: the list (times in each appointment's own zone),
 * its filters and empty state, the appointment page, and what each role may do. Appointments are
 * booked, requested and cancelled through the real service, on slots its availability offered.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { behave, DENVER } from '../bff/appointmentsFixture';
import type { WireOrder } from '../bff/ordersFixture';
import { renderOnStack } from './renderApp';
import { startRealStack, type RealStack, type SeenRequest } from './realStack';
import {
  availabilityAt,
  bookThroughService,
  cancelThroughService,
  findSlot,
  placeHomeOrderAt,
  requestThroughService,
  setUnknownAppointmentState,
  slotLabel,
  zonedText,
  dayName,
  loose,
  wallTime,
  zoneAbbr,
  type Place,
  type WireAppointment,
} from './seed/appointments';

// The runner reads UTC; the patients live in Los Angeles, Chicago, Boston, Virginia, Ohio and Denver.
const runnerZone = process.env.TZ;

const LOS_ANGELES: Place = { first_line: '200 N Spring St', city: 'Los Angeles', state: 'CA', zip: '90012', access_notes: 'Buzz 4B; street parking only' };
const CHICAGO: Place = { first_line: '1 E Wacker Dr', city: 'Chicago', state: 'IL', zip: '60601' };
const BOSTON: Place = { first_line: '1 City Hall Sq', city: 'Boston', state: 'MA', zip: '02201' };
const CLEVELAND: Place = { first_line: '21000 Brookpark Rd', city: 'Cleveland', state: 'OH', zip: '44135' };
const HAMPTON: Place = { first_line: '1 Langley Blvd', city: 'Hampton', state: 'VA', zip: '23681' };
const DENVER_PLACE: Place = { first_line: DENVER.first_line, city: DENVER.city, state: DENVER.state, zip: DENVER.zip_code };
const DALLAS: Place = { first_line: '1500 Marilla St', city: 'Dallas', state: 'TX', zip: '75201', access_notes: 'Side door' };

const DAY = 86_400_000;

let stack: RealStack;
const o = {} as Record<'mary' | 'dorothy' | 'katherine' | 'annie' | 'christine' | 'mae' | 'evelyn' | 'walkIn', WireOrder>;
const a = {} as Record<'mary' | 'dorothy' | 'katherine' | 'christine' | 'mae', WireAppointment>;

beforeAll(async () => {
  process.env.TZ = 'UTC';
  stack = await startRealStack();
  const { service } = stack;
  const { team } = service;
  const [user] = await service.addUsers(team, [{ clientUserId: 'pt-appointments-ui' }]);
  await behave(service, { default: { latency_ms: 5, failure_rate: 0 } });
  const place = (name: [string, string], at: Place) => placeHomeOrderAt(service, team, user!, name, at);
  o.mary = await place(['Mary', 'Jackson'], LOS_ANGELES);
  o.dorothy = await place(['Dorothy', 'Vaughan'], CHICAGO);
  o.katherine = await place(['Katherine', 'Johnson'], BOSTON);
  o.annie = await place(['Annie', 'Easley'], CLEVELAND);
  o.christine = await place(['Christine', 'Darden'], HAMPTON);
  o.mae = await place(['Mae', 'Jemison'], DENVER_PLACE);
  o.evelyn = await place(['Evelyn', 'Boyd'], DALLAS);
  o.walkIn = await service.placeOrder(team, user!); // the catalogue's default test: a walk-in draw

  // Soonest first: Mary, Dorothy, Katherine, Christine, Mae, each more than a day after the one before.
  const mary = await findSlot(service, team, LOS_ANGELES, { provider: 'provider_3', priority: false, localTime: '8:00 AM' });
  a.mary = await bookThroughService(service, team, o.mary.id, mary.slot.booking_key, { appointment_notes: 'Ring twice' });

  // Dorothy's provider takes days to answer: her asynchronous booking stays pending.
  await behave(service, { default: { latency_ms: 5, failure_rate: 0 }, provider_2: { latency_ms: 172_800_000 } });
  const dorothy = await findSlot(service, team, CHICAGO, { provider: 'provider_2', priority: false, after: Date.parse(a.mary.start_at!) + DAY + 2 * 3_600_000 });
  a.dorothy = await bookThroughService(service, team, o.dorothy.id, dorothy.slot.booking_key, { async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
  await behave(service, { default: { latency_ms: 5, failure_rate: 0 } });

  const katherine = await findSlot(service, team, BOSTON, { provider: 'provider_1', priority: false, after: Date.parse(a.dorothy.start_at!) + DAY + 2 * 3_600_000 });
  await bookThroughService(service, team, o.katherine.id, katherine.slot.booking_key);
  a.katherine = await cancelThroughService(service, team, o.katherine.id, 'patient_unavailable');

  // Christine's appointment has a status and a provider from a newer service version.
  const christine = await findSlot(service, team, HAMPTON, { provider: 'provider_4', after: Date.parse(a.katherine.start_at!) + DAY + 2 * 3_600_000 });
  a.christine = await bookThroughService(service, team, o.christine.id, christine.slot.booking_key);
  await setUnknownAppointmentState(service, a.christine.id, 'no_show', 'provider_9');

  const mae = await findSlot(service, team, DENVER_PLACE, { provider: 'provider_3', priority: false, after: Date.parse(a.christine.start_at!) + DAY + 2 * 3_600_000 });
  a.mae = await bookThroughService(service, team, o.mae.id, mae.slot.booking_key);

  // Annie's was requested without a time.
  await requestThroughService(service, team, o.annie.id, CLEVELAND, 'provider_4');
});
afterAll(async () => {
  await stack?.close();
  if (runnerZone === undefined) delete process.env.TZ;
  else process.env.TZ = runnerZone;
});
beforeEach(() => stack.reset());

async function openAs(who: 'coordinator' | 'lab_ops' | 'reviewer', path = '/appointments') {
  await stack.signInAs(who);
  return renderOnStack(stack, path);
}

const rows = () => screen.getAllByRole('row').slice(1); // minus the header row
const listCalls = (requests: SeenRequest[]) => requests.filter((r) => r.method === 'GET' && r.path === '/api/appointments');
const lastFilter = (requests: SeenRequest[]) => JSON.parse(listCalls(requests).at(-1)!.query.get('filter')!) as Record<string, unknown>;

describe('appointments list', () => {
  it("shows each draw in its own zone (and the viewer's time), soonest first, with patient, provider, status and order", async () => {
    await openAs('coordinator');
    // The BFF walks the team's at-home orders and reads each one's appointment: give it time.
    expect(await screen.findByText('Mary Jackson')).toBeInTheDocument();
    expect(rows()).toHaveLength(6);
    // What is coming first (all of these are ahead; the requested one has no time yet).
    expect(listCalls(stack.requests)[0]!.query.get('sort')).toBe('["upcoming","ASC"]');
    expect(rows().map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual([
      'Mary Jackson',
      'Dorothy Vaughan',
      'Katherine Johnson',
      'Christine Darden',
      'Mae Jemison',
      'Annie Easley',
    ]);

    const first = rows()[0]!;
    const la = 'America/Los_Angeles';
    expect(within(first).getByText(loose(zonedText(a.mary.start_at!, la)))).toBeInTheDocument();
    expect(within(first).getByText(loose(`Your time: ${zonedText(a.mary.start_at!, 'UTC')}`))).toBeInTheDocument();
    expect(within(first).getByText(/, 8:00\sAM P[DS]T$/)).toBeInTheDocument(); // the slot's wall time in Los Angeles
    expect(within(first).getByText('Provider 3')).toBeInTheDocument();
    expect(within(first).getByText('Confirmed').closest('.MuiChip-root')!.className).toMatch(/MuiChip-colorSuccess/);
    const link = within(first).getByRole('link', { name: `Order ${o.mary.id.slice(0, 8)}` });
    expect(link).toHaveAttribute('href', `#/orders/${o.mary.id}/show`);

    // Chicago and Boston, each in its own zone.
    expect(within(rows()[1]!).getByText(loose(zonedText(a.dorothy.start_at!, 'America/Chicago')))).toBeInTheDocument();
    expect(within(rows()[1]!).getByText('Pending')).toBeInTheDocument();
    expect(within(rows()[1]!).getByText('Provider 2')).toBeInTheDocument();
    expect(within(rows()[2]!).getByText(loose(zonedText(a.katherine.start_at!, 'America/New_York')))).toBeInTheDocument();
    expect(within(rows()[2]!).getByText('Cancelled')).toBeInTheDocument();

    // A status and a provider this dashboard does not know: shown raw, on a neutral chip.
    const unknown = within(rows()[3]!).getByText('no_show').closest('.MuiChip-root')!;
    expect(unknown.className).toMatch(/MuiChip-outlined/);
    expect(within(rows()[3]!).getByText('provider_9')).toBeInTheDocument();

    // Requested appointments have no time yet, and come last.
    expect(within(rows()[5]!).getByText('Requested, no time yet')).toBeInTheDocument();
    expect(within(rows()[5]!).getByText('Annie Easley')).toBeInTheDocument();
  });

  it('opens an appointment from its row, by keyboard too', async () => {
    const { user } = await openAs('coordinator');
    const row = (await screen.findByText('Mary Jackson')).closest('tr')!;
    // In the Tab order, and Enter opens it as a click does.
    expect(row).toHaveAttribute('tabindex', '0');
    row.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Appointment for Mary Jackson')).toBeInTheDocument();
  });

  it('shows past visits on their own, latest first, and back to what is coming', async () => {
    const { user } = await openAs('coordinator');
    await screen.findByText('Mary Jackson');
    await user.click(screen.getByRole('button', { name: 'Past visits' }));
    // None has passed in this team: said so, with the way back.
    expect(await screen.findByText('No past visits yet: choose "Coming up" for the draws ahead.')).toBeInTheDocument();
    expect(lastFilter(stack.requests)).toEqual({ past: true });
    expect(listCalls(stack.requests).at(-1)!.query.get('sort')).toBe('["start_at","DESC"]');
    await user.click(screen.getByRole('button', { name: 'Coming up' }));
    expect(await screen.findByText('Mary Jackson')).toBeInTheDocument();
    expect(listCalls(stack.requests).at(-1)!.query.get('sort')).toBe('["upcoming","ASC"]');
  });

  it('switches to the dark theme from the app bar, and back', async () => {
    const { user } = await openAs('coordinator');
    await screen.findByText('Mary Jackson');
    const page = () => getComputedStyle(document.body).backgroundColor;
    const light = page();
    await user.click(screen.getByRole('button', { name: 'Toggle light/dark mode' }));
    await waitFor(() => expect(page()).toBe('rgb(18, 21, 24)'));
    await user.click(screen.getByRole('button', { name: 'Toggle light/dark mode' }));
    await waitFor(() => expect(page()).toBe(light));
  });

  it('filters by status, provider and start date', async () => {
    const { user } = await openAs('coordinator');
    await screen.findByText('Mary Jackson');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Confirmed' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('Dorothy Vaughan')).not.toBeInTheDocument());
    expect(lastFilter(stack.requests)).toEqual({ status: ['confirmed'] });
    // Mary's (and Mae's, unless the cancel test ran first): every row confirmed.
    expect(screen.getByText('Mary Jackson')).toBeInTheDocument();
    expect(rows().every((r) => within(r).queryByText('Confirmed'))).toBe(true);
    expect(screen.queryByText('Katherine Johnson')).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Provider' }));
    await user.click(await screen.findByRole('option', { name: 'Provider 2' }));
    await user.keyboard('{Escape}');
    expect(await screen.findByText('No appointments match these filters.')).toBeInTheDocument();
    expect(lastFilter(stack.requests)).toEqual({ status: ['confirmed'], provider: ['provider_2'] });
  });

  it('filters by a start date range in the viewer’s own days', async () => {
    const { user } = await openAs('coordinator');
    await screen.findByText('Mary Jackson');
    await user.click(screen.getByRole('button', { name: /add filter/i }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Starts from' }));
    const from = await screen.findByLabelText('Starts from');
    // Katherine's day in the viewer's zone (UTC): Mary's and Dorothy's are more than a day earlier.
    const day = a.katherine.start_at!.slice(0, 10);
    fireEvent.change(from, { target: { value: day } });
    await waitFor(() => expect(lastFilter(stack.requests)).toHaveProperty('start_date'));
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    expect(lastFilter(stack.requests).start_date).toBe(new Date(y, m - 1, d, 0, 0, 0, 0).toISOString());
    // Earlier draws and the request without a time drop out.
    await waitFor(() => expect(screen.queryByText('Mary Jackson')).not.toBeInTheDocument());
    expect(screen.queryByText('Dorothy Vaughan')).not.toBeInTheDocument();
    expect(screen.queryByText('Annie Easley')).not.toBeInTheDocument();
    expect(screen.getByText('Katherine Johnson')).toBeInTheDocument();
    expect(screen.getByText('Christine Darden')).toBeInTheDocument();
  });

  it('says where draws are booked when there are none', async () => {
    // Another team's console: a BFF holding the key of a team without appointments.
    stack.useBffApp(await stack.bff.buildApp({ serviceApiKey: stack.service.otherTeam.apiKey }));
    try {
      await openAs('coordinator');
      expect(await screen.findByText('No appointments yet')).toBeInTheDocument();
      expect(screen.getByText(/Book a draw from an at-home order's page/)).toBeInTheDocument();
      const link = screen.getByRole('link', { name: /At-home orders/ });
      expect(decodeURIComponent(link.getAttribute('href') ?? '')).toBe('#/orders?filter={"collection_method":["at_home_phlebotomy"]}');
    } finally {
      stack.useBffApp(null);
    }
  });
});

describe('an appointment page', () => {
  it('shows the details, events, address with access notes, the order, and the actions', async () => {
    await openAs('coordinator', `/appointments/${o.mary.id}/show`);
    expect(await screen.findByText('Appointment for Mary Jackson')).toBeInTheDocument();
    const la = 'America/Los_Angeles';
    const card = screen.getByRole('region', { name: 'Appointment' });
    expect(within(card).getByText(loose(zonedText(a.mary.start_at!, la)))).toBeInTheDocument();
    expect(within(card).getByText(loose(`Until ${wallTime(a.mary.end_at!, la)} ${zoneAbbr(a.mary.end_at!, la)}`))).toBeInTheDocument();
    expect(within(card).getByText(/^Until 8:30\sAM P[DS]T$/)).toBeInTheDocument();
    expect(within(card).getByTestId('appointment-notes')).toHaveTextContent('Ring twice');
    expect(within(card).getByText('200 N Spring St')).toBeInTheDocument();
    expect(within(card).getByText('Los Angeles, CA 90012')).toBeInTheDocument();
    expect(within(card).getByTestId('address-access-notes')).toHaveTextContent('Buzz 4B; street parking only');
    const events = within(card).getByRole('list', { name: 'Appointment events' });
    expect(within(events).getAllByRole('listitem').map((li) => li.querySelector('.MuiChip-label')?.textContent)).toEqual(['Reserved', 'Scheduled']);

    const order = screen.getByRole('region', { name: 'Order' });
    expect(within(order).getByRole('link', { name: `Open order ${o.mary.id}` })).toHaveAttribute('href', `#/orders/${o.mary.id}/show`);
    expect(within(order).getByText('Appointment scheduled')).toBeInTheDocument();

    // The same actions as on the order page.
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel appointment' })).toBeEnabled();
  });

  it('cancels from the appointment page too', async () => {
    const { user } = await openAs('coordinator', `/appointments/${o.mae.id}/show`);
    await user.click(await screen.findByRole('button', { name: 'Cancel appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    // The reasons come from the service.
    await user.click(await within(dialog).findByRole('combobox', { name: /Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'Appointment no longer needed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(stack.requests.find((r) => r.path === `/api/orders/${o.mae.id}/appointment/cancel`)?.body).toEqual({ cancellation_reason_id: 'no_longer_needed' });
    // Cancelled: nothing left to move or cancel.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Reschedule' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Appointment' })).getAllByText('Cancelled').length).toBeGreaterThan(0);
  });
});

describe('roles', () => {
  it('lets lab operations see appointments and slots, but not book, move or cancel', async () => {
    const { user } = await openAs('lab_ops');
    expect(await screen.findByRole('menuitem', { name: /Appointments/ })).toBeInTheDocument();
    await user.click(await screen.findByText('Mary Jackson'));
    expect(await screen.findByText('Appointment for Mary Jackson')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reschedule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel appointment' })).not.toBeInTheDocument();

    // An at-home order without an appointment: the times on offer, and no way to book one.
    window.location.hash = `#/orders/${o.evelyn.id}/show`;
    expect(await screen.findByText('Times on offer')).toBeInTheDocument();
    const zone = await screen.findByTestId('slot-zone');
    expect(zone).toHaveTextContent(/^Times in America\/Chicago \((CDT|CST)(\/(CDT|CST))?\), the patient's time zone$/);
    // Dallas is served by provider_2 alone: 10:00 on a weekday that is not today, as the service offers it.
    const offered = await availabilityAt(stack.service, stack.service.team, DALLAS);
    const day = offered.slots.slice(1).find((d) => d.slots.some((s) => wallTime(s.start, offered.timezone).replace(/\s/g, ' ') === '10:00 AM'))!;
    const ten = day.slots.find((s) => wallTime(s.start, offered.timezone).replace(/\s/g, ' ') === '10:00 AM')!;
    expect(slotLabel(ten, offered.timezone)).toMatch(/^10:00\sAM C[DS]T, \$30, 1 place left, Provider 2$/);
    const listed = screen.getByRole('listitem', { name: dayName(day.date) });
    expect(within(listed).getByLabelText(loose(slotLabel(ten, offered.timezone)))).toBeInTheDocument();
    // The chips cannot be picked: none is a button (a busy day's "+N more" still opens the rest).
    const days = screen.getByRole('list', { name: 'Days' });
    expect(within(days).queryAllByRole('button', { name: /places? left/ })).toHaveLength(0);
    expect(within(days).queryAllByRole('button').every((b) => /^(\+\d+ more slots|Show fewer slots) on /.test(b.getAttribute('aria-label') ?? ''))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Book' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request an appointment' })).not.toBeInTheDocument();
    expect(screen.getByText(/your role can see the times on offer but not book them/)).toBeInTheDocument();
    expect(stack.requests.some((r) => r.method === 'POST' && /\/appointment\/(book|request|reschedule|cancel)$/.test(r.path))).toBe(false);
  });

  it('gives reviewers no appointments at all', async () => {
    await openAs('reviewer', '/');
    expect(await screen.findByText('Test reviewer')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: /Appointments/ })).not.toBeInTheDocument());
  });

  it('shows coordinators the scheduling section only on at-home orders', async () => {
    await openAs('coordinator', `/orders/${o.walkIn.id}/show`);
    expect(await screen.findByRole('region', { name: 'Order timeline' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'At-home draw' })).not.toBeInTheDocument();
    // The page has settled (patient and lab account read): still no appointment call.
    expect(await screen.findByText('pt-appointments-ui')).toBeInTheDocument();
    expect(await screen.findByText(/ · Quest/)).toBeInTheDocument();
    expect(stack.requests.some((r) => r.path.startsWith('/api/appointments') || r.path.includes('/appointment/'))).toBe(false);
  });
});

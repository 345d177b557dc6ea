/**
 * Booking an at-home draw from the order page, against the fake BFF: the slot calendar in the
 * patient's zone, booking (sync and async), expired and taken slots, the provider not confirming,
 * rescheduling, cancelling and requesting an appointment elsewhere.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSRF_TOKEN,
  defaultSlotsOn,
  makeAppointment,
  makeOrder,
  SAMPLE_LAB_TESTS,
  SAMPLE_USERS,
  type FakeBffOptions,
  type RecordedRequest,
  type SlotTemplate,
  type StaffAccount,
} from './fakeBff';
import { renderApp } from './renderApp';

// The runner's clock reads UTC, the patient's Los Angeles: a slot must never show in the runner's zone.
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

const order = makeOrder({
  id: '0e0e0e0e-0000-4000-8000-0000000000a1',
  created_at: '2026-10-20T09:00:00.000Z',
  lab_test: SAMPLE_LAB_TESTS[2]!,
  details: { type: 'at_home_phlebotomy', data: null },
  patient_details: { first_name: 'Mary', last_name: 'Jackson', dob: '1921-04-09', gender: 'female', phone_number: '+15555550110', email: 'mary@example.com' },
  patient_address: { first_line: '200 N Spring St', city: 'Los Angeles', state: 'CA', zip: '90012', country: 'US', access_notes: 'Buzz 4B; street parking only' },
  events: [{ id: 1, created_at: '2026-10-20T09:00:00.000Z', status: 'received.at_home_phlebotomy.ordered' }],
});

const OCT_26_8AM = /^Mon, Oct 26, 2026, 8:00\sAM PDT/;

function openOrder(options: FakeBffOptions = {}) {
  return renderApp({ users: SAMPLE_USERS, orders: [order], signedIn: true, staff: [COORDINATOR], ...options }, `/orders/${order.id}/show`);
}

const calls = (requests: RecordedRequest[], action: string) =>
  requests.filter((r) => r.method === 'POST' && r.path === `/api/orders/${order.id}/appointment/${action}`);
const appointmentReads = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'GET' && r.path === `/api/appointments/${order.id}`);

const day = (name: RegExp | string) => screen.getByRole('listitem', { name });
const slotButton = (dayName: RegExp | string, time: RegExp) => within(day(dayName)).getByRole('button', { name: time });

async function calendar() {
  return screen.findByTestId('slot-zone', {}, { timeout: 5000 });
}

describe('the slot calendar on an at-home order', () => {
  it("shows 14 days in the patient's zone, named, across the end of daylight saving", async () => {
    const { bff, user } = openOrder();
    expect(await calendar()).toHaveTextContent("Times in America/Los_Angeles (PDT/PST), the patient's time zone");

    // The address the slots are for, with its access notes, and a way to ask for another one.
    const confirm = screen.getByRole('group', { name: 'Patient address on the order' });
    expect(within(confirm).getByText('200 N Spring St')).toBeInTheDocument();
    expect(within(confirm).getByText('Buzz 4B; street parking only')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request an appointment' })).toBeInTheDocument();

    const days = within(screen.getByRole('list', { name: 'Days' })).getAllByRole('listitem');
    expect(days).toHaveLength(14);
    expect(days[0]).toHaveAccessibleName('Mon, Oct 26');
    expect(days[13]).toHaveAccessibleName('Sun, Nov 8');
    // 15:00Z is 8:00 AM in daylight time, 7:00 AM once it ends (1 November); never 3:00 PM (the runner's UTC).
    expect(slotButton('Mon, Oct 26', /^8:00\sAM PDT, \$35, 3 places left, Provider 1$/)).toBeInTheDocument();
    expect(slotButton('Mon, Nov 2', /^7:00\sAM PST, \$35, 3 places left, Provider 1$/)).toBeInTheDocument();
    expect(slotButton('Mon, Oct 26', /^11:30\sAM PDT, \$45, priority, 1 place left, Provider 2$/)).toBeInTheDocument();
    expect(screen.queryByText(/3:00\sPM/)).not.toBeInTheDocument();
    expect(within(day('Sun, Nov 1')).getByText('No slots')).toBeInTheDocument();

    // Asked for the order's own address ({}), with the CSRF token, as a POST.
    const first = calls(bff.requests, 'availability')[0]!;
    expect(first.body).toEqual({});
    expect(first.query.get('start_date')).toBeNull();
    expect(first.headers.get('x-csrf-token')).toBe(CSRF_TOKEN);

    // Two weeks on, and back.
    expect(screen.getByRole('button', { name: 'Previous 14 days' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next 14 days' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Days' }).firstElementChild).toHaveAccessibleName('Mon, Nov 9'));
    expect(calls(bff.requests, 'availability').at(-1)?.query.get('start_date')).toBe('2026-11-09');
    await user.click(screen.getByRole('button', { name: 'Previous 14 days' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Days' }).firstElementChild).toHaveAccessibleName('Mon, Oct 26'));
  });

  it('books a picked slot with notes and shows it confirmed, with the order moved on', async () => {
    const { bff, user } = openOrder();
    await calendar();
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
    await user.click(slotButton('Mon, Oct 26', /^8:00\sAM PDT/));
    expect(slotButton('Mon, Oct 26', /^8:00\sAM PDT/)).toHaveAttribute('aria-pressed', 'true');

    // The summary says when in both the patient's time and the viewer's (UTC here).
    const chosen = screen.getByRole('group', { name: 'Chosen time' });
    expect(within(chosen).getByText(OCT_26_8AM)).toBeInTheDocument();
    expect(within(chosen).getByTestId('viewer-time')).toHaveTextContent('Your time: Mon, Oct 26, 2026, 3:00 PM UTC');
    // ... and with whom.
    expect(within(chosen).getByTestId('chosen-provider')).toHaveTextContent('With Provider 1');

    await user.type(screen.getByLabelText('Appointment notes'), 'Patient is hard of hearing: knock loudly');
    await user.click(screen.getByRole('button', { name: 'Book' }));

    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByText('Confirmed')).toBeInTheDocument();
    expect(within(section).getByText(OCT_26_8AM)).toBeInTheDocument();
    expect(within(section).getByTestId('appointment-notes')).toHaveTextContent('Patient is hard of hearing: knock loudly');
    expect(within(section).getByText('Buzz 4B; street parking only')).toBeInTheDocument();
    expect(await screen.findByText(/Draw booked and confirmed for Mon, Oct 26, 2026, 8:00\sAM PDT/)).toBeInTheDocument();
    // Booked: no second booking is offered.
    expect(screen.queryByRole('region', { name: 'Book a draw' })).not.toBeInTheDocument();
    // The order's own status follows.
    expect(await within(screen.getByLabelText('Order status')).findByText('Appointment scheduled')).toBeInTheDocument();

    const books = calls(bff.requests, 'book');
    expect(books).toHaveLength(1);
    expect(books[0]!.body).toEqual({ booking_key: expect.stringContaining('provider_1-2026-10-26T15:00'), appointment_notes: 'Patient is hard of hearing: knock loudly' });
    expect(books[0]!.headers.get('x-csrf-token')).toBe(CSRF_TOKEN);
  });

  it('counts the appointment notes live and refuses more than 1000 characters before sending', async () => {
    const { bff, user } = openOrder();
    await calendar();
    await user.click(slotButton('Tue, Oct 27', /^8:00\sAM PDT/));
    expect(screen.getByTestId('appointment_notes-counter')).toHaveTextContent('0 / 1000');
    const notes = screen.getByLabelText('Appointment notes');
    fireEvent.change(notes, { target: { value: 'x'.repeat(1000) } });
    expect(screen.getByTestId('appointment_notes-counter')).toHaveTextContent('1000 / 1000');
    fireEvent.change(notes, { target: { value: 'x'.repeat(1001) } });
    expect(screen.getByTestId('appointment_notes-counter')).toHaveTextContent('1001 / 1000');
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('At most 1000 characters: remove 1')).toBeInTheDocument();
    expect(calls(bff.requests, 'book')).toHaveLength(0);
  });
});

describe('asynchronous confirmation', () => {
  it('shows the wait as a progress bar against the timeout, and updates to confirmed by itself', async () => {
    // The reread right after booking still finds it pending; the next poll finds it confirmed.
    const { bff, user } = openOrder({ scheduling: { pendingReads: 2, asyncOutcome: 'confirmed' } });
    await calendar();
    await user.click(slotButton('Mon, Oct 26', /^8:00\sAM PDT/));
    await user.click(screen.getByRole('checkbox', { name: 'Confirm asynchronously' }));
    expect(screen.getByLabelText(/Wait for a quick answer \(seconds\)/)).toHaveValue(2.5);
    const timeout = screen.getByLabelText(/Cancel if not confirmed within \(minutes\)/);
    expect(timeout).toHaveValue(15);
    await user.clear(timeout);
    await user.type(timeout, '30');
    await user.click(screen.getByRole('button', { name: 'Book' }));

    const waiting = await screen.findByTestId('awaiting-provider');
    expect(within(waiting).getByText('Waiting for Provider 1 to confirm')).toBeInTheDocument();
    expect(within(waiting).getByText(/within 30 min, the booking is cancelled/)).toBeInTheDocument();
    const bar = within(waiting).getByRole('progressbar', { name: 'Waiting for the provider to confirm' });
    expect(bar).toHaveAttribute('aria-valuenow'); // determinate: the timeout is known
    expect(within(screen.getByLabelText('Order status')).getByText('Appointment pending')).toBeInTheDocument();

    expect(calls(bff.requests, 'book')[0]!.body).toEqual({
      booking_key: expect.any(String),
      async_confirmation: true,
      sync_confirmation_timeout_millisecond: 2500,
      async_confirmation_timeout_millisecond: 1_800_000,
    });

    // Polled every ~2 s until the provider answered; then a clear message, and the order moved on.
    expect(await screen.findByText('Provider 1 confirmed the appointment.', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByTestId('awaiting-provider')).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Current appointment' })).getByText('Confirmed')).toBeInTheDocument();
    expect(await within(screen.getByLabelText('Order status')).findByText('Appointment scheduled')).toBeInTheDocument();
    // And no more polling.
    const reads = appointmentReads(bff.requests).length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(appointmentReads(bff.requests).length).toBe(reads);
  });

  it('says so when the provider does not confirm in time, and offers booking again', async () => {
    // The reread right after booking still finds it pending; the next poll finds it cancelled.
    const { user } = openOrder({ scheduling: { pendingReads: 2, asyncOutcome: 'cancelled' } });
    await calendar();
    await user.click(slotButton('Mon, Oct 26', /^8:00\sAM PDT/));
    await user.click(screen.getByRole('checkbox', { name: 'Confirm asynchronously' }));
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByTestId('awaiting-provider');
    expect(
      await screen.findByText(
        'The booking was cancelled before it was confirmed: the provider did not confirm in time. Nothing is booked for this order; book another time.',
        {},
        { timeout: 8000 },
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Book a draw' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Order status')).getByText('Appointment cancelled')).toBeInTheDocument();
  });

  it('shows an indeterminate bar when the timeout is not known', async () => {
    const pending = makeAppointment(order, { status: 'pending', event_status: 'pending', can_reschedule: false, event_data: {}, events: [{ created_at: new Date().toISOString(), status: 'pending', data: {} }] });
    openOrder({ appointments: [pending], scheduling: { pendingReads: 100 } });
    const waiting = await screen.findByTestId('awaiting-provider');
    expect(within(waiting).getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
    // A pending booking cannot be moved: the reason is said.
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeDisabled();
  });
});

describe('slots that expired or went', () => {
  it('never sends an expired slot: refreshes the slots, says so, and keeps the time if still offered', async () => {
    // The first answer's keys are already dead (a long pause, a sleeping laptop); later ones live.
    const { bff, user } = openOrder({ scheduling: { keyTtlMs: (call) => (call === 1 ? -1000 : 15 * 60_000) } });
    await calendar();
    await user.click(slotButton('Tue, Oct 27', /^8:00\sAM PDT/));
    await user.click(screen.getByRole('button', { name: 'Book' }));

    expect(await screen.findByText(/The slots expired and were refreshed\. Your time is still offered and stays selected/)).toBeInTheDocument();
    expect(calls(bff.requests, 'book')).toHaveLength(0);
    expect(calls(bff.requests, 'availability')).toHaveLength(2);
    expect(slotButton('Tue, Oct 27', /^8:00\sAM PDT/)).toHaveAttribute('aria-pressed', 'true');

    // A new click on Book books it, with the fresh key.
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByRole('region', { name: 'Current appointment' });
    const books = calls(bff.requests, 'book');
    expect(books).toHaveLength(1);
    expect((books[0]!.body as { booking_key: string }).booking_key).toMatch(/^key-27-provider_1-2026-10-27T15:00/);
  });

  it('drops the choice when the refreshed slots no longer offer it', async () => {
    let gone = false;
    const slotsOn = (date: string) => defaultSlotsOn(date).filter((s) => !(gone && s.start === '2026-10-27T15:00:00.000Z'));
    const { bff, user } = openOrder({ scheduling: { slotsOn, keyTtlMs: (call) => (call === 1 ? -1000 : 15 * 60_000) } });
    await calendar();
    await user.click(slotButton('Tue, Oct 27', /^8:00\sAM PDT/));
    gone = true;
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('The slots expired and were refreshed; pick a time again.')).toBeInTheDocument();
    expect(within(day('Tue, Oct 27')).queryByRole('button', { name: /^8:00\sAM/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
    expect(calls(bff.requests, 'book')).toHaveLength(0);
  });

  it('refreshes the slots by itself when the first one expires while the calendar is open', async () => {
    const { bff } = openOrder({ scheduling: { keyTtlMs: (call) => (call === 1 ? 1200 : 15 * 60_000) } });
    await calendar();
    expect(calls(bff.requests, 'availability')).toHaveLength(1);
    await waitFor(() => expect(calls(bff.requests, 'availability')).toHaveLength(2), { timeout: 4000 });
    // The fresh keys live 15 minutes: no third call follows at once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls(bff.requests, 'availability')).toHaveLength(2);
  });

  it('refreshes the slots on a 410 (slot_expired) answer', async () => {
    const expired = { status: 410, body: { message: 'The booking key has expired', code: 'slot_expired', errors: { booking_key: 'has expired' } } };
    const { bff, user } = openOrder({ scheduling: { answers: { book: [expired] } } });
    await calendar();
    await user.click(slotButton('Tue, Oct 27', /^8:00\sAM PDT/));
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText(/The slots expired and were refreshed/)).toBeInTheDocument();
    expect(calls(bff.requests, 'book')).toHaveLength(1);
    expect(calls(bff.requests, 'availability')).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'Current appointment' })).not.toBeInTheDocument();
  });

  it('says a slot was just taken (409 slot_taken) and refreshes', async () => {
    const taken = { status: 409, body: { message: 'The slot is no longer available', code: 'slot_taken' } };
    const { bff, user } = openOrder({ scheduling: { answers: { book: [taken] } } });
    await calendar();
    await user.click(slotButton('Tue, Oct 27', /^11:30\sAM PDT/));
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('That time was just taken by another booking. The slots were refreshed: pick another time.')).toBeInTheDocument();
    expect(calls(bff.requests, 'availability')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
  });

  it('says nothing was booked when the provider could not confirm (502 not_confirmed)', async () => {
    const refused = { status: 502, body: { message: 'provider_1 could not confirm the booking', code: 'not_confirmed' } };
    const { bff, user } = openOrder({ scheduling: { answers: { book: [refused] } } });
    await calendar();
    await user.click(slotButton('Tue, Oct 27', /^8:00\sAM PDT/));
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(
      await screen.findByText(/The provider could not confirm this time, so nothing was booked\. Try again, or tick "Confirm asynchronously"/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Current appointment' })).not.toBeInTheDocument();
    expect(calls(bff.requests, 'book')).toHaveLength(1);
  });
});

describe('several providers in a zip', () => {
  const TUE = '2026-10-27';
  const at = (minutes: number) => `${TUE}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00.000Z`;
  /**
   * A busy Tuesday: provider_1 every 30 minutes from 8:00 AM PDT ($35, 2 places) and provider_2
   * every hour from 8:00 AM ($30, 1 place): twelve slots, 8:00, 9:00, 10:00 and 11:00 twice over.
   */
  const busySlotsOn = (date: string): SlotTemplate[] => {
    if (date !== TUE) return defaultSlotsOn(date);
    const p1 = Array.from({ length: 8 }, (_, i) => ({ start: at(900 + 30 * i), end: at(930 + 30 * i), provider: 'provider_1', price: 35, is_priority: false, places: 2 }));
    const p2 = Array.from({ length: 4 }, (_, i) => ({ start: at(900 + 60 * i), end: at(960 + 60 * i), provider: 'provider_2', price: 30, is_priority: false, places: 1 }));
    return [...p1, ...p2].sort((a, b) => a.start.localeCompare(b.start) || a.provider.localeCompare(b.provider));
  };
  const chipsOf = (dayName: string) => within(day(dayName)).queryAllByRole('button', { name: /places? left/ });
  const filter = () => screen.getByRole('group', { name: 'Filter by provider' });

  it('names each slot’s provider, in its accessible name and tooltip', async () => {
    openOrder({ scheduling: { slotsOn: busySlotsOn } });
    await calendar();
    // The same time twice: the provider tells them apart (the time, zone, price and places come first, as before).
    const p1 = slotButton('Tue, Oct 27', /^8:00\sAM PDT, \$35, 2 places left, Provider 1$/);
    const p2 = slotButton('Tue, Oct 27', /^8:00\sAM PDT, \$30, 1 place left, Provider 2$/);
    expect(p1).toHaveAttribute('title', 'Provider 1');
    expect(p2).toHaveAttribute('title', 'Provider 2');
    expect(within(p1).getByText('Provider 1')).toBeInTheDocument();
    expect(slotButton('Mon, Oct 26', /^11:30\sAM PDT, \$45, priority, 1 place left, Provider 2$/)).toHaveAttribute('title', 'Priority slot · Provider 2');
  });

  it('narrows the chips to the providers chosen in the filter, and back to all', async () => {
    const { user } = openOrder({ scheduling: { slotsOn: busySlotsOn } });
    await calendar();
    const all = within(filter()).getByRole('button', { name: 'All providers' });
    expect(within(filter()).getAllByRole('button').map((b) => b.textContent)).toEqual(['All providers', 'Provider 1', 'Provider 2']);
    expect(all).toHaveAttribute('aria-pressed', 'true');
    expect(chipsOf('Mon, Oct 26')).toHaveLength(2);

    await user.click(within(filter()).getByRole('button', { name: 'Provider 2' }));
    expect(within(filter()).getByRole('button', { name: 'Provider 2' })).toHaveAttribute('aria-pressed', 'true');
    expect(all).toHaveAttribute('aria-pressed', 'false');
    // Only provider_2's slots: four on the busy day (no "+N more" needed), one on Monday.
    expect(chipsOf('Tue, Oct 27').map((c) => c.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^8:00\sAM PDT, \$30, 1 place left, Provider 2$/),
      expect.stringMatching(/^9:00\sAM PDT, .*Provider 2$/),
      expect.stringMatching(/^10:00\sAM PDT, .*Provider 2$/),
      expect.stringMatching(/^11:00\sAM PDT, .*Provider 2$/),
    ]);
    expect(within(day('Tue, Oct 27')).queryByRole('button', { name: /more slots/ })).not.toBeInTheDocument();
    expect(chipsOf('Mon, Oct 26').map((c) => c.getAttribute('aria-label'))).toEqual([expect.stringMatching(/^11:30\sAM PDT, .*Provider 2$/)]);
    expect(within(day('Sun, Nov 1')).getByText('No slots')).toBeInTheDocument();

    // Both chosen is all of them.
    await user.click(within(filter()).getByRole('button', { name: 'Provider 1' }));
    expect(all).toHaveAttribute('aria-pressed', 'true');
    expect(within(filter()).getByRole('button', { name: 'Provider 1' })).toHaveAttribute('aria-pressed', 'false');
    expect(chipsOf('Mon, Oct 26')).toHaveLength(2);

    await user.click(within(filter()).getByRole('button', { name: 'Provider 1' }));
    expect(chipsOf('Mon, Oct 26').map((c) => c.getAttribute('aria-label'))).toEqual([expect.stringMatching(/^8:00\sAM PDT, .*Provider 1$/)]);
    await user.click(all);
    expect(chipsOf('Tue, Oct 27')).toHaveLength(6);
  });

  it('shows the earliest 6 slots of a day, and "+N more" opens the rest', async () => {
    const { user } = openOrder({ scheduling: { slotsOn: busySlotsOn } });
    await calendar();
    // Earliest first (same time: by provider).
    const startAndProvider = (chip: HTMLElement) => {
      const parts = chip.getAttribute('aria-label')!.replace(/\s/g, ' ').split(', ');
      return `${parts[0]} ${parts.at(-1)}`;
    };
    expect(chipsOf('Tue, Oct 27').map(startAndProvider)).toEqual([
      '8:00 AM PDT Provider 1',
      '8:00 AM PDT Provider 2',
      '8:30 AM PDT Provider 1',
      '9:00 AM PDT Provider 1',
      '9:00 AM PDT Provider 2',
      '9:30 AM PDT Provider 1',
    ]);
    const more = within(day('Tue, Oct 27')).getByRole('button', { name: '+6 more slots on Tue, Oct 27' });
    expect(more).toHaveTextContent('+6 more');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    // Days with few slots have no button.
    expect(within(day('Mon, Oct 26')).queryByRole('button', { name: /more slots|fewer/ })).not.toBeInTheDocument();

    await user.click(more);
    expect(chipsOf('Tue, Oct 27')).toHaveLength(12);
    const fewer = within(day('Tue, Oct 27')).getByRole('button', { name: 'Show fewer slots on Tue, Oct 27' });
    expect(fewer).toHaveAttribute('aria-expanded', 'true');
    expect(fewer).toHaveFocus();
    expect(slotButton('Tue, Oct 27', /^11:30\sAM PDT, \$35, 2 places left, Provider 1$/)).toBeInTheDocument();
    await user.click(fewer);
    expect(chipsOf('Tue, Oct 27')).toHaveLength(6);
  });

  it('always shows the chosen slot, past the first 6 or filtered out, and the summary names its provider', async () => {
    const { bff, user } = openOrder({ scheduling: { slotsOn: busySlotsOn } });
    await calendar();
    await user.click(within(day('Tue, Oct 27')).getByRole('button', { name: /^\+6 more/ }));
    await user.click(slotButton('Tue, Oct 27', /^11:30\sAM PDT, \$35, 2 places left, Provider 1$/));
    await user.click(within(day('Tue, Oct 27')).getByRole('button', { name: /^Show fewer/ }));
    // The earliest 6 and the chosen one; 5 left behind the button.
    expect(chipsOf('Tue, Oct 27')).toHaveLength(7);
    expect(slotButton('Tue, Oct 27', /^11:30\sAM PDT/)).toHaveAttribute('aria-pressed', 'true');
    expect(within(day('Tue, Oct 27')).getByRole('button', { name: '+5 more slots on Tue, Oct 27' })).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Chosen time' })).getByTestId('chosen-provider')).toHaveTextContent('With Provider 1');

    // Filtering to another provider keeps the chosen chip on screen.
    await user.click(within(filter()).getByRole('button', { name: 'Provider 2' }));
    expect(chipsOf('Tue, Oct 27')).toHaveLength(5);
    expect(slotButton('Tue, Oct 27', /^11:30\sAM PDT, \$35, 2 places left, Provider 1$/)).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByRole('region', { name: 'Current appointment' });
    expect((calls(bff.requests, 'book')[0]!.body as { booking_key: string }).booking_key).toContain('provider_1-2026-10-27T18:30');
  });

  it('keeps a choice across a refresh only from the same provider, when the slots name it', async () => {
    let gone = false;
    const twin = (provider: string): SlotTemplate => ({ start: at(960), end: at(990), provider, price: 35, is_priority: false, places: 2 });
    // Same time, length, price: only the provider tells them apart. provider_3's goes away.
    const slotsOn = (date: string) => (date === TUE ? [twin('provider_1'), ...(gone ? [] : [twin('provider_3')])] : defaultSlotsOn(date));
    const { bff, user } = openOrder({ scheduling: { slotsOn, keyTtlMs: (call) => (call === 1 ? -1000 : 15 * 60_000) } });
    await calendar();
    await user.click(slotButton('Tue, Oct 27', /^9:00\sAM PDT, \$35, 2 places left, Provider 3$/));
    gone = true;
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('The slots expired and were refreshed; pick a time again.')).toBeInTheDocument();
    expect(slotButton('Tue, Oct 27', /^9:00\sAM PDT, \$35, 2 places left, Provider 1$/)).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
    expect(calls(bff.requests, 'book')).toHaveLength(0);
  });

  it('still works for a deployment whose slots do not name their provider', async () => {
    const { bff, user } = openOrder({ scheduling: { slotsOn: busySlotsOn, slotProviders: false, keyTtlMs: (call) => (call === 1 ? -1000 : 15 * 60_000) } });
    await calendar();
    expect(screen.queryByRole('group', { name: 'Filter by provider' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Provider \d/)).not.toBeInTheDocument();
    // The names as before, without a provider.
    expect(slotButton('Mon, Oct 26', /^8:00\sAM PDT, \$35, 3 places left$/)).not.toHaveAttribute('title');
    expect(slotButton('Mon, Oct 26', /^11:30\sAM PDT, \$45, priority, 1 place left$/)).toHaveAttribute('title', 'Priority slot');
    // Days are compact all the same.
    expect(chipsOf('Tue, Oct 27')).toHaveLength(6);
    await user.click(within(day('Tue, Oct 27')).getByRole('button', { name: '+6 more slots on Tue, Oct 27' }));
    expect(chipsOf('Tue, Oct 27')).toHaveLength(12);

    await user.click(slotButton('Tue, Oct 27', /^10:30\sAM PDT, \$35, 2 places left$/));
    expect(within(screen.getByRole('group', { name: 'Chosen time' })).queryByTestId('chosen-provider')).not.toBeInTheDocument();
    // The first keys arrive expired: the refresh keeps the same offer (matched without a provider) ...
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText(/Your time is still offered and stays selected/)).toBeInTheDocument();
    expect(slotButton('Tue, Oct 27', /^10:30\sAM PDT/)).toHaveAttribute('aria-pressed', 'true');
    // ... and books it with the fresh key.
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByRole('region', { name: 'Current appointment' });
    const books = calls(bff.requests, 'book');
    expect(books).toHaveLength(1);
    expect((books[0]!.body as { booking_key: string }).booking_key).toMatch(/^key-\d+-provider_1-2026-10-27T17:30/);
  });
});

describe('an existing appointment', () => {
  const confirmed = makeAppointment(order, { appointment_notes: 'Ring twice' });

  it('shows it in the patient’s zone, and reschedules it to a new slot at its own address', async () => {
    const { bff, user } = openOrder({ appointments: [confirmed] });
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByText(OCT_26_8AM)).toBeInTheDocument();
    expect(within(section).getByText("When (patient's time zone: America/Los_Angeles)")).toBeInTheDocument();
    expect(within(section).getByText('Provider 1')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Book a draw' })).not.toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule the draw' });
    await within(dialog).findByTestId('slot-zone');
    // The appointment's own address, as a USAddress.
    expect(calls(bff.requests, 'availability')[0]!.body).toEqual({
      first_line: '200 N Spring St',
      city: 'Los Angeles',
      state: 'CA',
      zip_code: '90012',
      access_notes: 'Buzz 4B; street parking only',
    });
    // The notes start as the appointment's.
    expect(within(dialog).getByLabelText('Appointment notes')).toHaveValue('Ring twice');
    await user.click(within(within(dialog).getByRole('listitem', { name: 'Wed, Oct 28' })).getByRole('button', { name: /^8:00\sAM PDT/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule to this time' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(screen.getByRole('region', { name: 'Current appointment' })).findByText(/^Wed, Oct 28, 2026, 8:00\sAM PDT/)).toBeInTheDocument();
    expect(calls(bff.requests, 'reschedule')[0]!.body).toEqual({ booking_key: expect.stringContaining('2026-10-28T15:00'), appointment_notes: 'Ring twice' });
    expect(calls(bff.requests, 'book')).toHaveLength(0);
  });

  it('disables Reschedule, saying why, when the appointment cannot be moved', async () => {
    openOrder({ appointments: [{ ...confirmed, can_reschedule: false }] });
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByRole('button', { name: 'Reschedule' })).toBeDisabled();
    expect(within(section).getByTestId('reschedule-blocked')).toHaveTextContent('Reschedule is not available: the provider does not allow moving this appointment');
    expect(within(section).getByRole('button', { name: 'Cancel appointment' })).toBeEnabled();
  });

  it('cancels it with a reason and notes, then offers booking again', async () => {
    const { bff, user } = openOrder({ appointments: [confirmed] });
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    await user.click(within(section).getByRole('button', { name: 'Cancel appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });

    // A reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));
    expect(await within(dialog).findByText('Choose a reason')).toBeInTheDocument();
    expect(calls(bff.requests, 'cancel')).toHaveLength(0);

    await user.click(within(dialog).getByRole('combobox', { name: /Reason/ }));
    expect(await screen.findByRole('option', { name: 'Cancelled less than 24 hours before the appointment (not refundable)' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Patient asked to cancel' }));
    await user.type(within(dialog).getByLabelText('Notes (optional)'), 'Travelling that week');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls(bff.requests, 'cancel')[0]!.body).toEqual({ cancellation_reason_id: 'patient_request', notes: 'Travelling that week' });
    const after = screen.getByRole('region', { name: 'Current appointment' });
    expect(within(after).getAllByText('Cancelled', { selector: '.MuiChip-label' })).toHaveLength(2); // status and last event
    expect(within(after).getByText('Patient asked to cancel')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Book a draw' })).toBeInTheDocument();
  });
});

describe('requesting an appointment', () => {
  it('prefills the order’s address, shows a 422 on the zip code field, and sends the request once corrected', async () => {
    const { bff, user } = openOrder({ scheduling: { unservedZips: ['99999'] } });
    await calendar();
    await user.click(screen.getByRole('button', { name: 'Request an appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request an appointment' });
    expect(within(dialog).getByLabelText(/Street address/)).toHaveValue('200 N Spring St');
    expect(within(dialog).getByLabelText('Access notes')).toHaveValue('Buzz 4B; street parking only');
    const zip = within(dialog).getByLabelText(/Zip code/);
    expect(zip).toHaveValue('90012');

    await user.clear(within(dialog).getByLabelText(/Street address/));
    await user.type(within(dialog).getByLabelText(/Street address/), '9 Desert Road');
    await user.clear(zip);
    await user.type(zip, '99999');
    await user.click(within(dialog).getByRole('combobox', { name: /Provider/ }));
    await user.click(await screen.findByRole('option', { name: 'Provider 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

    expect(await within(dialog).findByText('No provider serves zip code 99999')).toBeInTheDocument();
    expect(zip).toHaveAttribute('aria-invalid', 'true');
    expect(calls(bff.requests, 'request')).toHaveLength(1);
    expect(calls(bff.requests, 'request')[0]!.body).toEqual({
      address: { first_line: '9 Desert Road', city: 'Los Angeles', state: 'CA', zip_code: '99999', access_notes: 'Buzz 4B; street parking only' },
      provider: 'provider_2',
    });

    await user.clear(zip);
    await user.type(zip, '90013');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByText('Requested: the provider will propose a time')).toBeInTheDocument();
    expect(within(section).getByText('9 Desert Road')).toBeInTheDocument();
    expect(screen.getByText(/Requested from Provider 2: waiting for the provider to propose a time/)).toBeInTheDocument();
  });
});

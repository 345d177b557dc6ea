/**
 * Booking an at-home draw from the order page, on the real stack: the slot calendar in the
 * patient's zone (the real service's providers and working hours), booking (sync and async),
 * expired and taken slots, the provider not confirming, rescheduling, cancelling and requesting an
 * appointment elsewhere. The patient lives in Chicago, served by provider_1 (Mon-Sat 7:00-15:00,
 * 30 minutes, 2 places) and provider_2 (Mon-Fri 8:00-17:00, an hour, 1 place). Every slot a test
 * picks comes from the service's own availability answer, so nothing depends on the time of day.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_NOTES, behave, CHICAGO, placeHomeOrder, runConfirmation } from '../bff/appointmentsFixture';
import type { WireOrder } from '../bff/ordersFixture';
import { runConfirmJob } from '../../server/service/domain/appointments/confirmJob';
import { setPollScale } from '../../src/components/polling';
import { AWAITING_POLL_MS } from '../../src/orders/scheduling/appointmentState';
import { fill, renderOnStack } from './renderApp';
import { startRealStack, type RealStack, type SeenRequest } from './realStack';
import {
  addDays,
  appointmentOf,
  availabilityAt,
  bookThroughService,
  clockAtNext,
  clockJumpsDuringNext,
  dayName,
  findSlot,
  isoWeekday,
  keyPayload,
  loose,
  restoreClock,
  setClock,
  shiftClock,
  slotLabel,
  wallTime,
  withoutSlotProviders,
  zoneAbbr,
  zonedText,
  type Availability,
  type Place,
  type Slot,
  type SlotWish,
} from './seed/appointments';

type User = ReturnType<typeof userEvent.setup>;

const ZONE = 'America/Chicago';
const PLACE: Place = { first_line: CHICAGO.first_line, city: CHICAGO.city, state: CHICAGO.state, zip: CHICAGO.zip_code, access_notes: ACCESS_NOTES };
const FAST = { default: { latency_ms: 5, failure_rate: 0 } };
const MINUTE = 60_000;
/**
 * The page polls ten times as often as the dashboard does (a booking the provider has not answered:
 * every 200 ms, not 2 s): a test that proves polling stopped watches several of these go by.
 */
const POLL_SCALE = 0.1;
const POLL_MS = AWAITING_POLL_MS * POLL_SCALE;

// The runner's clock reads UTC, the patient's Chicago: a slot must never show in the runner's zone.
const runnerZone = process.env.TZ;

let stack: RealStack;
let patientId: string;
/** Slots (provider|start) a test booked or will book, so each test takes its own. */
const used = new Set<string>();
/** Bookings still waiting for their provider when their test ended: they must have succeeded by the end of the file. */
const settling: Promise<unknown>[] = [];

beforeAll(async () => {
  process.env.TZ = 'UTC';
  stack = await startRealStack();
  [patientId] = (await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-scheduling-ui' }])) as [string];
  await behave(stack.service, FAST);
  setPollScale(POLL_SCALE);
});
afterAll(async () => {
  setPollScale();
  // Bookings a test left to settle in the background (see 'shows an indeterminate bar').
  await Promise.all(settling.splice(0));
  await stack?.close();
  if (runnerZone === undefined) delete process.env.TZ;
  else process.env.TZ = runnerZone;
});
beforeEach(() => stack.reset());
afterEach(async () => {
  restoreClock();
  await behave(stack.service, FAST);
});

const newOrder = (name: [string, string] = ['Mary', 'Jackson']) => placeHomeOrder(stack.service, stack.service.team, patientId, name);
const service = () => stack.service;
const team = () => stack.service.team;
const chicago = (startDate?: string) => availabilityAt(service(), team(), PLACE, startDate);
/** A slot of the first 14 days (not today) that no other test uses, for the dashboard to show and a test to pick. */
const pickSlot = (wish: SlotWish = {}) => findSlot(service(), team(), PLACE, { provider: 'provider_1', priority: false, ...wish, firstWindowOnly: true, unused: used });

async function openOrder(order: WireOrder) {
  await stack.signInAs('coordinator');
  return renderOnStack(stack, `/orders/${order.id}/show`);
}

const calls = (order: WireOrder, action: string) => stack.requests.filter((r) => r.method === 'POST' && r.path === `/api/orders/${order.id}/appointment/${action}`);
const appointmentReads = (order: WireOrder) => stack.requests.filter((r: SeenRequest) => r.method === 'GET' && r.path === `/api/appointments/${order.id}`);

const day = (date: string, scope: HTMLElement = document.body) => within(scope).getByRole('listitem', { name: dayName(date) });
const chipsOf = (date: string, scope?: HTMLElement) => within(day(date, scope)).queryAllByRole('button', { name: /places? left/ });
const labelsOf = (date: string, scope?: HTMLElement) => chipsOf(date, scope).map((c) => c.getAttribute('aria-label')!.replace(/\s/g, ' '));
const spaced = (text: string) => text.replace(/\s/g, ' ');
const slotChip = (date: string, slot: Slot, scope?: HTMLElement) => within(day(date, scope)).getByRole('button', { name: loose(slotLabel(slot, ZONE)) });

/** Clicks a slot's chip, opening its day's "+N more" first when the slot is not among the first shown. */
async function clickSlot(user: User, date: string, slot: Slot, scope?: HTMLElement) {
  const name = loose(slotLabel(slot, ZONE));
  if (!within(day(date, scope)).queryByRole('button', { name })) {
    await user.click(within(day(date, scope)).getByRole('button', { name: /more slots on/ }));
  }
  await user.click(within(day(date, scope)).getByRole('button', { name }));
}

async function calendar(scope: HTMLElement = document.body) {
  return within(scope).findByTestId('slot-zone');
}

/** Books the slot for another order at the same address straight at the service (someone else took it). */
async function takenElsewhere(slot: Slot) {
  const other = await newOrder(['Someone', 'Else']);
  const answer = await chicago();
  const same = answer.slots.flatMap((d) => d.slots).find((s) => s.start === slot.start && s.provider === slot.provider)!;
  await bookThroughService(service(), team(), other.id, same.booking_key);
}

/** A weekday (Mon-Fri) of the first 14 days, not today, that no booking test picks: the last one. */
function busyDay(answer: Availability) {
  return answer.slots.slice(1).filter((d) => isoWeekday(d.date) <= 5).at(-1)!;
}

describe('the slot calendar on an at-home order', () => {
  it("shows 14 days in the patient's zone, named, in the providers' local hours, also across a change of daylight saving", async () => {
    const order = await newOrder();
    const answer = await chicago();
    const { user } = await openOrder(order);
    const abbreviations = [...new Set(answer.slots.flatMap((d) => d.slots.map((s) => zoneAbbr(s.start, ZONE))))].join('/');
    expect(await calendar()).toHaveTextContent(`Times in America/Chicago (${abbreviations}), the patient's time zone`);

    // The address the slots are for, with its access notes, and a way to ask for another one.
    const confirm = screen.getByRole('group', { name: 'Patient address on the order' });
    expect(within(confirm).getByText(CHICAGO.first_line)).toBeInTheDocument();
    expect(within(confirm).getByText(ACCESS_NOTES)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request an appointment' })).toBeInTheDocument();

    const days = within(screen.getByRole('list', { name: 'Days' })).getAllByRole('listitem');
    expect(days).toHaveLength(14);
    expect(days[0]).toHaveAccessibleName(dayName(answer.slots[0]!.date));
    expect(days[13]).toHaveAccessibleName(dayName(answer.slots[13]!.date));
    // A working day shows its earliest slots as the service offers them: from 7:00 AM Chicago time
    // (provider_1 opens then), never in the runner's UTC (12:00 or 1:00 PM).
    const busy = busyDay(answer);
    expect(labelsOf(busy.date)).toEqual(busy.slots.slice(0, 6).map((s) => slotLabel(s, ZONE)));
    expect(labelsOf(busy.date)[0]).toMatch(/^7:00 AM C[DS]T, \$60, priority, 1 place left, Provider 1$/);
    for (const d of answer.slots.slice(1)) {
      for (const label of labelsOf(d.date)) expect(label).toMatch(/^((7|8|9|10|11):[03]0 AM|(12|1|2|3|4):[03]0 PM) C[DS]T, /);
    }
    const sunday = answer.slots.find((d) => isoWeekday(d.date) === 7)!;
    expect(within(day(sunday.date)).getByText('No slots')).toBeInTheDocument();

    // Asked for the order's own address ({}), with the CSRF token, as a POST.
    const first = calls(order, 'availability')[0]!;
    expect(first.body).toEqual({});
    expect(first.query.get('start_date')).toBeNull();
    expect(first.headers.get('x-csrf-token')).toMatch(/\S{16,}/);

    // Two weeks on, and back.
    expect(screen.getByRole('button', { name: 'Previous 14 days' })).toBeDisabled();
    const next = addDays(answer.slots[13]!.date, 1);
    await user.click(screen.getByRole('button', { name: 'Next 14 days' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Days' }).firstElementChild).toHaveAccessibleName(dayName(next)));
    expect(calls(order, 'availability').at(-1)?.query.get('start_date')).toBe(next);
    await user.click(screen.getByRole('button', { name: 'Previous 14 days' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Days' }).firstElementChild).toHaveAccessibleName(dayName(answer.slots[0]!.date)));

    // The next change of daylight saving (a Sunday): on the Saturday before and the Monday after,
    // provider_1 still opens at 7:00 AM Chicago time, an hour apart in UTC, each day named in its own zone.
    const today = answer.slots[0]!.date;
    // (From the day after tomorrow: the Saturday before must be a whole day ahead, not today.)
    let change = addDays(today, 2);
    while (zoneAbbr(`${change}T18:00:00Z`, ZONE) === zoneAbbr(`${addDays(change, -1)}T18:00:00Z`, ZONE)) change = addDays(change, 1);
    const saturday = addDays(change, -1);
    const monday = addDays(change, 1);
    const windowOf = (date: string) => Math.floor((Date.parse(date) - Date.parse(today)) / 86_400_000 / 14);
    const opening = async (date: string) => {
      const ofDay = (await chicago(date)).slots[0]!.slots;
      return ofDay.find((s) => s.provider === 'provider_1')!;
    };
    const [before, after] = [await opening(saturday), await opening(monday)];
    expect(spaced(wallTime(before.start, ZONE))).toBe('7:00 AM');
    expect(spaced(wallTime(after.start, ZONE))).toBe('7:00 AM');
    expect(Math.abs(new Date(before.start).getUTCHours() - new Date(after.start).getUTCHours())).toBe(1);
    for (let w = 0; w < windowOf(saturday); w++) {
      const shown = addDays(today, 14 * (w + 1));
      await user.click(screen.getByRole('button', { name: 'Next 14 days' }));
      await waitFor(() => expect(screen.getByRole('list', { name: 'Days' }).firstElementChild).toHaveAccessibleName(dayName(shown)));
    }
    expect(labelsOf(saturday)[0]).toBe(slotLabel(before, ZONE));
    if (windowOf(monday) !== windowOf(saturday)) {
      await user.click(screen.getByRole('button', { name: 'Next 14 days' }));
      await waitFor(() => expect(screen.getByRole('list', { name: 'Days' }).firstElementChild).toHaveAccessibleName(dayName(addDays(today, 14 * windowOf(monday)))));
    } else {
      expect(screen.getByTestId('slot-zone')).toHaveTextContent(`(${zoneAbbr(before.start, ZONE)}/${zoneAbbr(after.start, ZONE)})`);
    }
    expect(labelsOf(monday)[0]).toBe(slotLabel(after, ZONE));
  }, 300_000); // up to ~17 windows to the next change of daylight saving: 41-104 s for 7 of them beside other suites (load ~8)

  it('books a picked slot with notes and shows it confirmed, with the order moved on', async () => {
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    const { user } = await openOrder(order);
    await calendar();
    // The draw is what an at-home order is opened for: its section comes first, before the order's details.
    const draw = screen.getByRole('region', { name: 'At-home draw' });
    expect(draw.compareDocumentPosition(screen.getByRole('region', { name: 'Order' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
    await clickSlot(user, date, slot);
    expect(slotChip(date, slot)).toHaveAttribute('aria-pressed', 'true');

    // The summary says when in both the patient's time and the viewer's (UTC here).
    const chosen = screen.getByRole('group', { name: 'Chosen time' });
    expect(within(chosen).getByText(loose(zonedText(slot.start, ZONE)))).toBeInTheDocument();
    expect(spaced(within(chosen).getByTestId('viewer-time').textContent ?? '')).toBe(spaced(`Your time: ${zonedText(slot.start, 'UTC')}`));
    // ... and with whom.
    expect(within(chosen).getByTestId('chosen-provider')).toHaveTextContent('With Provider 1');

    await fill(user, screen.getByLabelText('Appointment notes'), 'Patient is hard of hearing: knock loudly');
    await user.click(screen.getByRole('button', { name: 'Book' }));

    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByText('Confirmed')).toBeInTheDocument();
    expect(within(section).getByText(loose(zonedText(slot.start, ZONE)))).toBeInTheDocument();
    expect(within(section).getByTestId('appointment-notes')).toHaveTextContent('Patient is hard of hearing: knock loudly');
    expect(within(section).getByText(ACCESS_NOTES)).toBeInTheDocument();
    expect(await screen.findByText(new RegExp(`^Draw booked and confirmed for ${loose(zonedText(slot.start, ZONE)).source.slice(1, -1)}`))).toBeInTheDocument();
    // Booked: no second booking is offered.
    expect(screen.queryByRole('region', { name: 'Book a draw' })).not.toBeInTheDocument();
    // The order's own status follows.
    expect(await within(screen.getByLabelText('Order status')).findByText('Appointment scheduled')).toBeInTheDocument();

    const books = calls(order, 'book');
    expect(books).toHaveLength(1);
    expect(books[0]!.body).toEqual({ booking_key: expect.any(String), appointment_notes: 'Patient is hard of hearing: knock loudly' });
    expect(keyPayload((books[0]!.body as { booking_key: string }).booking_key)).toMatchObject({ p: 'provider_1', s: slot.start });
    expect(books[0]!.headers.get('x-csrf-token')).toBe(calls(order, 'availability')[0]!.headers.get('x-csrf-token'));
  });

  it('counts the appointment notes live and refuses more than 1000 characters before sending', async () => {
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    expect(screen.getByTestId('appointment_notes-counter')).toHaveTextContent('0 / 1000');
    const notes = screen.getByLabelText('Appointment notes');
    fireEvent.change(notes, { target: { value: 'x'.repeat(1000) } });
    expect(screen.getByTestId('appointment_notes-counter')).toHaveTextContent('1000 / 1000');
    fireEvent.change(notes, { target: { value: 'x'.repeat(1001) } });
    expect(screen.getByTestId('appointment_notes-counter')).toHaveTextContent('1001 / 1000');
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('At most 1000 characters: remove 1')).toBeInTheDocument();
    expect(calls(order, 'book')).toHaveLength(0);
  });
});

describe('asynchronous confirmation', () => {
  it('shows the wait as a progress bar against the timeout, and updates to confirmed by itself', async () => {
    // provider_1 answers a minute after a booking: after the 2.5 s quick wait, the booking is pending.
    await behave(service(), { ...FAST, provider_1: { latency_ms: MINUTE } });
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    await user.click(screen.getByRole('radio', { name: 'Let the provider confirm later' }));
    // Spoken of as confirming now or later, never as a wait in seconds.
    expect(screen.queryByLabelText(/seconds/)).not.toBeInTheDocument();
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
    expect(await within(screen.getByLabelText('Order status')).findByText('Appointment pending')).toBeInTheDocument();

    expect(calls(order, 'book')[0]!.body).toEqual({
      booking_key: expect.any(String),
      async_confirmation: true,
      sync_confirmation_timeout_millisecond: 2500,
      async_confirmation_timeout_millisecond: 1_800_000,
    });

    // The service's job worker (this stack runs none): now, the provider has not answered yet; its
    // run a minute on, once the answer is due, reads it.
    const { id } = await appointmentOf(service(), team(), order.id);
    expect((await runConfirmation(service(), id)).outcome).toBe('waiting');
    expect(screen.getByTestId('awaiting-provider')).toBeInTheDocument();
    const polled = appointmentReads(order).length;
    await waitFor(() => expect(appointmentReads(order).length).toBeGreaterThan(polled)); // still polling
    expect((await runConfirmJob(service().db, { appointment_id: id }, () => new Date(Date.now() + MINUTE))).outcome).toBe('confirmed');

    // Polled until the provider answered; then a clear message, and the order moved on.
    expect(await screen.findByText('Provider 1 confirmed the appointment.')).toBeInTheDocument();
    expect(screen.queryByTestId('awaiting-provider')).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Current appointment' })).getByText('Confirmed')).toBeInTheDocument();
    expect(await within(screen.getByLabelText('Order status')).findByText('Appointment scheduled')).toBeInTheDocument();
    // And no more polling: five poll intervals go by without a read.
    const reads = appointmentReads(order).length;
    await new Promise((resolve) => setTimeout(resolve, 5 * POLL_MS));
    expect(appointmentReads(order).length).toBe(reads);
  });

  it('says so when the provider does not confirm in time, and offers booking again', async () => {
    // provider_1 takes two days to answer: the booking stays pending until its 15 minutes are up.
    await behave(service(), { ...FAST, provider_1: { latency_ms: 172_800_000 } });
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    await user.click(screen.getByRole('radio', { name: 'Let the provider confirm later' }));
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByTestId('awaiting-provider');
    expect(calls(order, 'book')[0]!.body).toMatchObject({ async_confirmation: true, sync_confirmation_timeout_millisecond: 2500 });

    // The job worker's run after the timeout (16 minutes on): the attempt is cancelled.
    const { id } = await appointmentOf(service(), team(), order.id);
    expect((await runConfirmJob(service().db, { appointment_id: id }, () => new Date(Date.now() + 16 * MINUTE))).outcome).toBe('cancelled');
    expect(
      await screen.findByText(
        'The booking was cancelled before it was confirmed: the provider did not confirm in time. Nothing is booked for this order; book another time.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Book a draw' })).toBeInTheDocument();
    expect(await within(screen.getByLabelText('Order status')).findByText('Appointment cancelled')).toBeInTheDocument();
  });

  it('shows an indeterminate bar when the timeout is not known', async () => {
    // A synchronous booking whose provider has not answered yet (8 s): reserved, no async timeout.
    await behave(service(), { ...FAST, provider_1: { latency_ms: 8000 } });
    const order = await newOrder();
    const { slot } = await pickSlot();
    const booking = bookThroughService(service(), team(), order.id, slot.booking_key);
    // It confirms 8 s on, while later tests run; the file's end waits for it (and fails if it failed).
    settling.push(booking);
    booking.catch(() => undefined); // a failure is the file's end's to report, not an unhandled rejection
    await waitFor(async () => expect((await appointmentOf(service(), team(), order.id)).status).toBe('reserved'), { interval: 100 });
    await behave(service(), FAST);
    await openOrder(order);
    const waiting = await screen.findByTestId('awaiting-provider');
    expect(within(waiting).getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
    // A booking the provider has not confirmed cannot be moved: the reason is said.
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeDisabled();
    expect(screen.getByTestId('reschedule-blocked')).toHaveTextContent('it cannot be moved while the provider has not confirmed it');
  });
});

describe('slots that expired or went', () => {
  it('never sends an expired slot: refreshes the slots, says so, and keeps the time if still offered', async () => {
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    // A long pause: the keys of the answer on screen have expired (they live 15 minutes).
    shiftClock(16 * MINUTE);
    await user.click(screen.getByRole('button', { name: 'Book' }));

    expect(await screen.findByText(/The slots expired and were refreshed\. Your time is still offered and stays selected/)).toBeInTheDocument();
    expect(calls(order, 'book')).toHaveLength(0);
    expect(calls(order, 'availability')).toHaveLength(2);
    expect(slotChip(date, slot)).toHaveAttribute('aria-pressed', 'true');

    // A new click on Book books it, with the fresh key.
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByRole('region', { name: 'Current appointment' });
    const books = calls(order, 'book');
    expect(books).toHaveLength(1);
    const key = keyPayload((books[0]!.body as { booking_key: string }).booking_key);
    expect(key).toMatchObject({ p: 'provider_1', s: slot.start });
    expect(Date.parse(key.x)).toBeGreaterThan(Date.parse(slot.expires_at)); // not the first answer's key
  });

  it('drops the choice when the refreshed slots no longer offer it', async () => {
    const order = await newOrder();
    // provider_2's slots have one place: once someone else books it, the time is gone.
    const { slot, date } = await pickSlot({ provider: 'provider_2' });
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    await takenElsewhere(slot);
    shiftClock(16 * MINUTE);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('The slots expired and were refreshed; pick a time again.')).toBeInTheDocument();
    expect(within(day(date)).queryByRole('button', { name: new RegExp(`^${spaced(wallTime(slot.start, ZONE)).replace(' ', '\\s')} .*Provider 2$`) })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
    expect(calls(order, 'book')).toHaveLength(0);
  });

  it('refreshes the slots by itself when the first one expires while the calendar is open', async () => {
    // Seconds before a slot starts, its key expires at its start (before the usual 15 minutes).
    const { slot } = await pickSlot({ places: 1 });
    used.delete(`${slot.provider}|${slot.start}`);
    setClock(Date.parse(slot.start) - MINUTE);
    const order = await newOrder();
    // However long the page takes to open, it asks for the slots 3 s before that one starts.
    clockAtNext(stack, 'post', `/api/orders/${order.id}/appointment/availability`, Date.parse(slot.start) - 3000);
    await openOrder(order);
    await calendar();
    expect(calls(order, 'availability')).toHaveLength(1);
    await waitFor(() => expect(calls(order, 'availability')).toHaveLength(2));
    // The fresh keys live 15 minutes: no third call follows at once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls(order, 'availability')).toHaveLength(2);
  });

  it('refreshes the slots on a 410 (slot_expired) answer', async () => {
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    // The key was still valid when the dashboard checked it, but not when the service read it.
    clockJumpsDuringNext(stack, 'post', `/api/orders/${order.id}/appointment/book`, 16 * MINUTE);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText(/The slots expired and were refreshed/)).toBeInTheDocument();
    expect(calls(order, 'book')).toHaveLength(1);
    expect(calls(order, 'availability')).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'Current appointment' })).not.toBeInTheDocument();
  });

  it('says a slot was just taken (409 slot_taken) and refreshes', async () => {
    const order = await newOrder();
    const { slot, date } = await pickSlot({ provider: 'provider_2' });
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    await takenElsewhere(slot);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('That time was just taken by another booking. The slots were refreshed: pick another time.')).toBeInTheDocument();
    expect(calls(order, 'availability')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
  });

  it('says nothing was booked when the provider could not confirm (502 not_confirmed)', async () => {
    await behave(service(), { ...FAST, provider_1: { latency_ms: 5, failure_rate: 1 } });
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    used.delete(`${slot.provider}|${slot.start}`); // nothing stays booked
    const { user } = await openOrder(order);
    await calendar();
    await clickSlot(user, date, slot);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(
      await screen.findByText(/The provider could not confirm this time, so nothing was booked\. Try again, or choose "Let the provider confirm later"/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Current appointment' })).not.toBeInTheDocument();
    expect(calls(order, 'book')).toHaveLength(1);
  });
});

describe('several providers in a zip', () => {
  const filter = () => screen.getByRole('group', { name: 'Filter by provider' });
  /** The busy weekday of the window as the service offers it now, and the dashboard showing it. */
  async function openBusyDay() {
    const answer = await chicago();
    const busy = busyDay(answer);
    const saturday = answer.slots.slice(1).find((d) => isoWeekday(d.date) === 6)!;
    const order = await newOrder();
    const opened = await openOrder(order);
    await calendar();
    return { ...opened, order, answer, busy, saturday, of: (provider: string) => busy.slots.filter((s) => s.provider === provider) };
  }
  const labels = (slots: Slot[]) => slots.map((s) => slotLabel(s, ZONE));

  it('names each slot’s provider, in its accessible name and tooltip', async () => {
    const { busy, of } = await openBusyDay();
    // The same time twice (8:00 AM): the provider tells them apart (the time, zone, price and places come first, as before).
    const [p1] = of('provider_1').filter((s) => spaced(wallTime(s.start, ZONE)) === '8:00 AM');
    const [p2] = of('provider_2').filter((s) => spaced(wallTime(s.start, ZONE)) === '8:00 AM');
    expect(slotLabel(p1!, ZONE)).toMatch(/^8:00\sAM C[DS]T, \$35, \d places? left, Provider 1$/);
    expect(slotLabel(p2!, ZONE)).toMatch(/^8:00\sAM C[DS]T, \$55, priority, 1 place left, Provider 2$/);
    const chip1 = slotChip(busy.date, p1!);
    expect(chip1).toHaveAttribute('title', 'Provider 1');
    expect(within(chip1).getByText('Provider 1')).toBeInTheDocument();
    expect(slotChip(busy.date, p2!)).toHaveAttribute('title', 'Priority slot · Provider 2');
  });

  it('narrows the chips to the providers chosen in the filter, and back to all', async () => {
    const { user, busy, saturday, answer, of } = await openBusyDay();
    const all = within(filter()).getByRole('button', { name: 'All providers' });
    expect(within(filter()).getAllByRole('button').map((b) => b.textContent)).toEqual(['All providers', 'Provider 1', 'Provider 2']);
    expect(all).toHaveAttribute('aria-pressed', 'true');
    expect(labelsOf(busy.date)).toEqual(labels(busy.slots.slice(0, 6)));

    await user.click(within(filter()).getByRole('button', { name: 'Provider 2' }));
    expect(within(filter()).getByRole('button', { name: 'Provider 2' })).toHaveAttribute('aria-pressed', 'true');
    expect(all).toHaveAttribute('aria-pressed', 'false');
    // Only provider_2's slots: its earliest six on the weekday, none on Saturday (it works Mon-Fri).
    expect(labelsOf(busy.date)).toEqual(labels(of('provider_2').slice(0, 6)));
    expect(within(day(busy.date)).getByRole('button', { name: `+${of('provider_2').length - 6} more slots on ${dayName(busy.date)}` })).toBeInTheDocument();
    expect(within(day(saturday.date)).getByText('No slots from Provider 2')).toBeInTheDocument();
    const sunday = answer.slots.find((d) => isoWeekday(d.date) === 7)!;
    expect(within(day(sunday.date)).getByText('No slots')).toBeInTheDocument();

    // Both chosen is all of them.
    await user.click(within(filter()).getByRole('button', { name: 'Provider 1' }));
    expect(all).toHaveAttribute('aria-pressed', 'true');
    expect(within(filter()).getByRole('button', { name: 'Provider 1' })).toHaveAttribute('aria-pressed', 'false');
    expect(chipsOf(busy.date)).toHaveLength(6);

    await user.click(within(filter()).getByRole('button', { name: 'Provider 1' }));
    expect(labelsOf(busy.date)).toEqual(labels(of('provider_1').slice(0, 6)));
    await user.click(all);
    expect(labelsOf(busy.date)).toEqual(labels(busy.slots.slice(0, 6)));
  });

  it('shows the earliest 6 slots of a day, and "+N more" opens the rest', async () => {
    const { user, busy, answer } = await openBusyDay();
    // Earliest first (same time: by provider).
    expect(labelsOf(busy.date)).toEqual(labels(busy.slots.slice(0, 6)));
    expect(labelsOf(busy.date).map((l) => l.split(', ').at(-1))).toEqual(busy.slots.slice(0, 6).map((s) => `Provider ${s.provider!.slice(-1)}`));
    const hidden = busy.slots.length - 6;
    const more = within(day(busy.date)).getByRole('button', { name: `+${hidden} more slots on ${dayName(busy.date)}` });
    expect(more).toHaveTextContent(`+${hidden} more`);
    expect(more).toHaveAttribute('aria-expanded', 'false');
    // Days with few slots have no button.
    const sunday = answer.slots.find((d) => isoWeekday(d.date) === 7)!;
    expect(within(day(sunday.date)).queryByRole('button', { name: /more slots|fewer/ })).not.toBeInTheDocument();

    await user.click(more);
    expect(chipsOf(busy.date)).toHaveLength(busy.slots.length);
    const fewer = within(day(busy.date)).getByRole('button', { name: `Show fewer slots on ${dayName(busy.date)}` });
    expect(fewer).toHaveAttribute('aria-expanded', 'true');
    expect(fewer).toHaveFocus();
    expect(slotChip(busy.date, busy.slots.at(-1)!)).toBeInTheDocument();
    await user.click(fewer);
    expect(chipsOf(busy.date)).toHaveLength(6);
  });

  it('always shows the chosen slot, past the first 6 or filtered out, and the summary names its provider', async () => {
    const { user, order, busy, of } = await openBusyDay();
    const late = of('provider_1').at(-1)!; // provider_1's last slot of the day (2:30 PM)
    used.add(`${late.provider}|${late.start}`);
    await user.click(within(day(busy.date)).getByRole('button', { name: /^\+\d+ more/ }));
    await user.click(slotChip(busy.date, late));
    await user.click(within(day(busy.date)).getByRole('button', { name: /^Show fewer/ }));
    // The earliest 6 and the chosen one; the rest behind the button.
    expect(chipsOf(busy.date)).toHaveLength(7);
    expect(slotChip(busy.date, late)).toHaveAttribute('aria-pressed', 'true');
    expect(within(day(busy.date)).getByRole('button', { name: `+${busy.slots.length - 7} more slots on ${dayName(busy.date)}` })).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Chosen time' })).getByTestId('chosen-provider')).toHaveTextContent('With Provider 1');

    // Filtering to another provider keeps the chosen chip on screen.
    await user.click(within(filter()).getByRole('button', { name: 'Provider 2' }));
    expect(chipsOf(busy.date)).toHaveLength(Math.min(6, of('provider_2').length) + 1);
    expect(slotChip(busy.date, late)).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByRole('region', { name: 'Current appointment' });
    expect(keyPayload((calls(order, 'book')[0]!.body as { booking_key: string }).booking_key)).toMatchObject({ p: 'provider_1', s: late.start });
  });

  it('keeps a choice across a refresh only from the same provider', async () => {
    const { user, order, busy, of } = await openBusyDay();
    // Two slots at 8:00 AM: provider_2's (one place) goes away; provider_1's at the same time stays.
    const [p1] = of('provider_1').filter((s) => spaced(wallTime(s.start, ZONE)) === '8:00 AM');
    const [p2] = of('provider_2').filter((s) => spaced(wallTime(s.start, ZONE)) === '8:00 AM');
    used.add(`${p2!.provider}|${p2!.start}`);
    await user.click(slotChip(busy.date, p2!));
    await takenElsewhere(p2!);
    shiftClock(16 * MINUTE);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('The slots expired and were refreshed; pick a time again.')).toBeInTheDocument();
    expect(slotChip(busy.date, p1!)).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Book' })).toBeDisabled();
    expect(calls(order, 'book')).toHaveLength(0);
  });

  it('still works for a deployment whose slots do not name their provider', async () => {
    // The real BFF's answers, minus the `provider` extension of this service.
    withoutSlotProviders(stack);
    const { user, order, busy } = await openBusyDay();
    const bare = (s: Slot): Slot => ({ ...s, provider: undefined });
    expect(screen.queryByRole('group', { name: 'Filter by provider' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Provider \d/)).not.toBeInTheDocument();
    // The names as before, without a provider.
    const regular = busy.slots.find((s) => !s.is_priority)!;
    const priority = busy.slots.find((s) => s.is_priority)!;
    expect(slotChip(busy.date, bare(regular))).not.toHaveAttribute('title');
    expect(slotChip(busy.date, bare(priority))).toHaveAttribute('title', 'Priority slot');
    // Days are compact all the same.
    expect(labelsOf(busy.date)).toEqual(busy.slots.slice(0, 6).map((s) => slotLabel(bare(s), ZONE)));
    await user.click(within(day(busy.date)).getByRole('button', { name: `+${busy.slots.length - 6} more slots on ${dayName(busy.date)}` }));
    expect(chipsOf(busy.date)).toHaveLength(busy.slots.length);

    // A provider_1 half-hour (no provider_2 slot starts then).
    const half = busy.slots.find((s) => s.provider === 'provider_1' && !s.is_priority && spaced(wallTime(s.start, ZONE)).includes(':30') && !used.has(`${s.provider}|${s.start}`))!;
    used.add(`${half.provider}|${half.start}`);
    await user.click(slotChip(busy.date, bare(half)));
    expect(within(screen.getByRole('group', { name: 'Chosen time' })).queryByTestId('chosen-provider')).not.toBeInTheDocument();
    // The keys expire: the refresh keeps the same offer (matched without a provider) ...
    shiftClock(16 * MINUTE);
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect(await screen.findByText(/Your time is still offered and stays selected/)).toBeInTheDocument();
    expect(slotChip(busy.date, bare(half))).toHaveAttribute('aria-pressed', 'true');
    // ... and books it with the fresh key.
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByRole('region', { name: 'Current appointment' });
    const books = calls(order, 'book');
    expect(books).toHaveLength(1);
    expect(keyPayload((books[0]!.body as { booking_key: string }).booking_key)).toMatchObject({ p: 'provider_1', s: half.start });
  });
});

describe('an existing appointment', () => {
  async function bookedOrder(extra: Record<string, unknown> = { appointment_notes: 'Ring twice' }) {
    const order = await newOrder();
    const { slot, date } = await pickSlot();
    await bookThroughService(service(), team(), order.id, slot.booking_key, extra);
    return { order, slot, date };
  }

  it('shows it in the patient’s zone, and reschedules it to a new slot at its own address', async () => {
    const { order, slot, date: bookedDate } = await bookedOrder();
    const { user } = await openOrder(order);
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByText(loose(zonedText(slot.start, ZONE)))).toBeInTheDocument();
    expect(within(section).getByText("When (patient's time zone: America/Chicago)")).toBeInTheDocument();
    expect(within(section).getByText('Provider 1')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Book a draw' })).not.toBeInTheDocument();

    const { slot: target, date } = await pickSlot();
    await user.click(within(section).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule the draw' });
    await calendar(dialog);
    // The time being replaced is marked on its day.
    expect(within(day(bookedDate, dialog)).getByRole('note', { name: `Current appointment: ${wallTime(slot.start, ZONE)}` })).toBeInTheDocument();
    expect(within(dialog).getAllByRole('note', { name: /^Current appointment/ })).toHaveLength(1);
    // The appointment's own address, as a USAddress.
    expect(calls(order, 'availability')[0]!.body).toEqual({ ...CHICAGO, access_notes: ACCESS_NOTES });
    // The notes start as the appointment's.
    expect(within(dialog).getByLabelText('Appointment notes')).toHaveValue('Ring twice');
    await clickSlot(user, date, target, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule to this time' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(screen.getByRole('region', { name: 'Current appointment' })).findByText(loose(zonedText(target.start, ZONE)))).toBeInTheDocument();
    const body = calls(order, 'reschedule')[0]!.body as { booking_key: string };
    expect(body).toEqual({ booking_key: expect.any(String), appointment_notes: 'Ring twice' });
    expect(keyPayload(body.booking_key)).toMatchObject({ p: 'provider_1', s: target.start });
    expect(calls(order, 'book')).toHaveLength(0);
  });

  it('disables Reschedule, saying why, when the appointment cannot be moved', async () => {
    // The service lets an appointment move once the provider confirmed it: this one is still pending.
    await behave(service(), { ...FAST, provider_1: { latency_ms: 172_800_000 } });
    const { order } = await bookedOrder({ async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 });
    await behave(service(), FAST);
    await openOrder(order);
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByRole('button', { name: 'Reschedule' })).toBeDisabled();
    expect(within(section).getByTestId('reschedule-blocked')).toHaveTextContent(
      'Reschedule is not available: it cannot be moved while the provider has not confirmed it. Wait for the confirmation, or cancel it.',
    );
    expect(within(section).getByRole('button', { name: 'Cancel appointment' })).toBeEnabled();
  });

  it('cancels it with a reason and notes, then offers booking again', async () => {
    const { order } = await bookedOrder();
    const { user } = await openOrder(order);
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    await user.click(within(section).getByRole('button', { name: 'Cancel appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });

    // A reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));
    expect(await within(dialog).findByText('Choose a reason')).toBeInTheDocument();
    expect(calls(order, 'cancel')).toHaveLength(0);

    await user.click(await within(dialog).findByRole('combobox', { name: /Reason/ }));
    expect(await screen.findByRole('option', { name: 'Cancelled less than 24 hours before the appointment (not refundable)' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Patient is unavailable at that time' }));
    await fill(user, within(dialog).getByLabelText('Notes (optional)'), 'Travelling that week');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls(order, 'cancel')[0]!.body).toEqual({ cancellation_reason_id: 'patient_unavailable', notes: 'Travelling that week' });
    const after = screen.getByRole('region', { name: 'Current appointment' });
    await waitFor(() => expect(within(after).getAllByText('Cancelled', { selector: '.MuiChip-label' })).toHaveLength(2)); // status and last event
    expect(within(after).getByText('Patient is unavailable at that time')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Book a draw' })).toBeInTheDocument();
  });
});

describe('requesting an appointment', () => {
  it('prefills the order’s address, shows a 422 on the zip code field, and sends the request once corrected', async () => {
    const order = await newOrder();
    const { user } = await openOrder(order);
    await calendar();
    await user.click(screen.getByRole('button', { name: 'Request an appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request an appointment' });
    expect(within(dialog).getByLabelText(/Street address/)).toHaveValue(CHICAGO.first_line);
    expect(within(dialog).getByLabelText('Access notes')).toHaveValue(ACCESS_NOTES);
    const zip = within(dialog).getByLabelText(/Zip code/);
    expect(zip).toHaveValue(CHICAGO.zip_code);

    await user.clear(within(dialog).getByLabelText(/Street address/));
    await fill(user, within(dialog).getByLabelText(/Street address/), '9 Desert Road');
    // Five digits, but no US state's zip code area.
    await user.clear(zip);
    await user.type(zip, '00000');
    await user.click(within(dialog).getByRole('combobox', { name: /Provider/ }));
    await user.click(await screen.findByRole('option', { name: 'Provider 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

    expect(await within(dialog).findByText('zip_code 00000 is not in a known US zip code area')).toBeInTheDocument();
    expect(zip).toHaveAttribute('aria-invalid', 'true');
    expect(calls(order, 'request')).toHaveLength(1);
    expect(calls(order, 'request')[0]!.body).toEqual({
      address: { first_line: '9 Desert Road', city: 'Chicago', state: 'IL', zip_code: '00000', access_notes: ACCESS_NOTES },
      provider: 'provider_2',
    });

    await user.clear(zip);
    await user.type(zip, '60602');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const section = await screen.findByRole('region', { name: 'Current appointment' });
    expect(within(section).getByText('Requested: the provider will propose a time')).toBeInTheDocument();
    expect(within(section).getByText('9 Desert Road')).toBeInTheDocument();
    expect(screen.getByText(/Requested from Provider 2: waiting for the provider to propose a time/)).toBeInTheDocument();
  });
});

/**
 * Seeding helpers of the appointment page tests (test/ui/appointments.test.tsx,
 * test/ui/scheduling.test.tsx). Everything is made in the real service: at-home orders placed and
 * appointments booked, requested and cancelled through its HTTP API; only what that API cannot make
 * (a status and a provider from a newer service version) straight in its tables. Slots are always
 * picked from a real availability answer, never assumed, so the tests hold at any time of day.
 *
 * Two things the real stack cannot be told to do on demand are made with the process clock (the
 * service, the BFF and the dashboard run in one process and share it): a booking key that expires
 * while the dashboard holds it (time passes: `shiftClock`), and a slot about to start (`setClock`).
 */
import { eq } from 'drizzle-orm';
import { http, HttpResponse } from 'msw';
import { vi } from 'vitest';
import { appointmentEvents, appointments } from '../../../server/service/db/schema';
import { HOME_DRAW, patient } from '../../bff/appointmentsFixture';
import type { Team } from '../../bff/harness';
import type { LabServiceFixture, WireOrder } from '../../bff/ordersFixture';
import type { RealStack } from '../realStack';

export interface Slot {
  booking_key: string;
  start: string;
  end: string;
  expires_at: string;
  price: number;
  is_priority: boolean;
  num_appointments_available: number;
  provider?: string;
}
export interface Availability {
  timezone: string;
  slots: { date: string; slots: Slot[] }[];
}
export interface WireAppointment {
  id: string;
  order_id: string;
  status: string;
  provider: string;
  start_at: string | null;
  end_at: string | null;
  iana_timezone: string | null;
  can_reschedule: boolean;
}

/** An address as an order takes it (`zip`) and as the appointment calls take it (`zip_code`). */
export interface Place {
  first_line: string;
  city: string;
  state: string;
  zip: string;
  access_notes?: string;
}
export const usAddress = ({ zip, ...rest }: Place) => ({ ...rest, zip_code: zip });

/** Places an at-home phlebotomy order for the patient at the address, through the service. */
export function placeHomeOrderAt(service: LabServiceFixture, team: Team, userId: string, name: [string, string], place: Place): Promise<WireOrder> {
  return service.placeOrder(team, userId, {
    lab_test_id: HOME_DRAW,
    patient_details: patient(...name),
    patient_address: { ...place, country: 'US' },
  });
}

/** The service's own availability answer for an address (14 days from `startDate`, default today there). */
export async function availabilityAt(service: LabServiceFixture, team: Team, place: Place, startDate?: string): Promise<Availability> {
  const query = startDate ? `?start_date=${startDate}` : '';
  const r = await service.call<Availability>(team, 'POST', `/v3/order/phlebotomy/appointment/availability${query}`, usAddress(place));
  if (r.status !== 200) throw new Error(`availability answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export interface SlotWish {
  provider?: string;
  /** Only regular (false) or only priority (true) slots; either when absent. */
  priority?: boolean;
  /** Starting after this instant (ms). */
  after?: number;
  /** Local wall time in the answer's zone, "8:00 AM" style (as the en-US formatter writes it). */
  localTime?: string;
  /** At least this many places left. */
  places?: number;
  /** Starts not used by another test yet (added to once picked). */
  unused?: Set<string>;
  /** Only in the first 14 days (the window the dashboard opens with). */
  firstWindowOnly?: boolean;
}

/** The first slot of the address (searching up to ~10 weeks ahead from tomorrow there) that fits the wish. */
export async function findSlot(service: LabServiceFixture, team: Team, place: Place, wish: SlotWish = {}): Promise<{ slot: Slot; zone: string; date: string }> {
  let start: string | undefined;
  for (let window = 0; window < (wish.firstWindowOnly ? 1 : 5); window++) {
    const answer = await availabilityAt(service, team, place, start);
    const today = answer.slots[0]!.date;
    for (const day of answer.slots) {
      if (window === 0 && day.date === today) continue; // today's slots depend on the hour
      const slot = day.slots.find(
        (s) =>
          (wish.provider === undefined || s.provider === wish.provider) &&
          (wish.priority === undefined || s.is_priority === wish.priority) &&
          (wish.after === undefined || Date.parse(s.start) > wish.after) &&
          (wish.localTime === undefined || wallTime(s.start, answer.timezone).replace(/\s/g, ' ') === wish.localTime) &&
          s.num_appointments_available >= (wish.places ?? 1) &&
          !wish.unused?.has(`${s.provider}|${s.start}`),
      );
      if (slot) {
        wish.unused?.add(`${slot.provider}|${slot.start}`);
        return { slot, zone: answer.timezone, date: day.date };
      }
    }
    start = addDays(answer.slots.at(-1)!.date, 1);
  }
  throw new Error(`no slot at ${place.zip} fits ${JSON.stringify({ ...wish, unused: undefined })}`);
}

/** Books a slot for an order through the service (synchronously unless `extra` says otherwise). */
export async function bookThroughService(service: LabServiceFixture, team: Team, orderId: string, bookingKey: string, extra: Record<string, unknown> = {}) {
  const r = await service.call<WireAppointment>(team, 'POST', `/v3/order/${orderId}/phlebotomy/appointment/book`, { booking_key: bookingKey, ...extra });
  if (r.status !== 200) throw new Error(`booking answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Requests an appointment without a time through the service. */
export async function requestThroughService(service: LabServiceFixture, team: Team, orderId: string, place: Place, provider: string) {
  const r = await service.call<WireAppointment>(team, 'POST', `/v3/order/${orderId}/phlebotomy/appointment/request`, { address: usAddress(place), provider });
  if (r.status !== 200) throw new Error(`request answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Cancels an order's appointment through the service. */
export async function cancelThroughService(service: LabServiceFixture, team: Team, orderId: string, reason = 'other') {
  const r = await service.call<WireAppointment>(team, 'PATCH', `/v3/order/${orderId}/phlebotomy/appointment/cancel`, { cancellation_reason_id: reason });
  if (r.status !== 200) throw new Error(`cancel answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The order's latest appointment as the service answers it. */
export async function appointmentOf(service: LabServiceFixture, team: Team, orderId: string) {
  const r = await service.call<WireAppointment>(team, 'GET', `/v3/order/${orderId}/phlebotomy/appointment`);
  if (r.status !== 200) throw new Error(`reading the appointment answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Gives an appointment a status and a provider this dashboard does not know (as a newer service
 * would): the row's status, event status and provider, and one more event with the status.
 */
export async function setUnknownAppointmentState(service: LabServiceFixture, appointmentId: string, status: string, provider: string) {
  await service.db.update(appointments).set({ status, eventStatus: status, provider, updatedAt: new Date() }).where(eq(appointments.id, appointmentId));
  await service.db.insert(appointmentEvents).values({ appointmentId, status, data: {} });
}

/** The payload a booking key names (provider `p`, start `s`, end `e`, expiry `x`). */
export function keyPayload(key: string): { p: string; s: string; e: string; x: string } {
  return JSON.parse(Buffer.from(key.split('.')[0]!, 'base64url').toString('utf8')) as { p: string; s: string; e: string; x: string };
}

// --- dates and times as the dashboard writes them (en-US, in a named zone) ----------------------

const fmt = (zone: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone });

/** "Mon, Oct 26, 2026, 8:00 AM" in the zone. */
export const wallDateTime = (iso: string, zone: string) =>
  fmt(zone, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
/** "8:00 AM" in the zone. */
export const wallTime = (iso: string, zone: string) => fmt(zone, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
/** "PDT", "CST": the zone's short name at the instant. */
export const zoneAbbr = (iso: string, zone: string) =>
  fmt(zone, { timeZoneName: 'short' })
    .formatToParts(new Date(iso))
    .find((p) => p.type === 'timeZoneName')!.value;
/** "Mon, Oct 26, 2026, 8:00 AM PDT": an instant as the dashboard shows it in the patient's zone. */
export const zonedText = (iso: string, zone: string) => `${wallDateTime(iso, zone)} ${zoneAbbr(iso, zone)}`;
/** "Mon, Oct 26": a calendar day's name in the slot calendar. */
export const dayName = (date: string) => fmt('UTC', { weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(`${date}T12:00:00Z`));
/** A slot chip's accessible name: "8:00 AM PDT, $35, [priority, ]3 places left, Provider 1". */
export function slotLabel(slot: Slot, zone: string): string {
  const n = slot.num_appointments_available;
  const provider = slot.provider ? `Provider ${slot.provider.replace('provider_', '')}` : null;
  return [`${wallTime(slot.start, zone)} ${zoneAbbr(slot.start, zone)}`, `$${slot.price}`, slot.is_priority ? 'priority' : null, `${n} ${n === 1 ? 'place' : 'places'} left`, provider]
    .filter(Boolean)
    .join(', ');
}
/** Text matching regardless of the (narrow) no-break space the formatter puts before AM/PM. */
export const loose = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[\s\u202f]/g, '\\s')}$`);

/** The calendar date `n` days after a YYYY-MM-DD date. */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
/** ISO weekday (1 Monday .. 7 Sunday) of a calendar date. */
export const isoWeekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

// --- the process clock -----------------------------------------------------------------------

/**
 * Moves the clock of the whole process (service, BFF and dashboard alike) to `at` (ms), and lets it
 * run on from there. Timers are not faked: only what the clock reads.
 */
export function setClock(at: number) {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(at);
}
/** As if `ms` went by at once (a laptop asleep, a long pause): everyone's clock jumps ahead. */
export function shiftClock(ms: number) {
  setClock(Date.now() + ms);
}
/** Back to the real clock. */
export const restoreClock = () => vi.useRealTimers();

/**
 * The next request matching `method` and `path` reaches the real BFF only after `ms` went by (the
 * clock jumps while it is in flight): e.g. a booking key that was valid when the dashboard checked
 * it has expired by the time the service reads it.
 */
export function clockJumpsDuringNext(stack: RealStack, method: 'post' | 'get', path: string, ms: number) {
  onNextRequest(stack, method, path, () => shiftClock(ms));
}

/** When the next request matching `method` and `path` is made, the clock reads `at` (ms) and runs on from there. */
export function clockAtNext(stack: RealStack, method: 'post' | 'get', path: string, at: number) {
  onNextRequest(stack, method, path, () => setClock(at));
}

/** Runs `effect` when the next request matching `method` and `path` is made; the request then goes on to the real BFF. */
function onNextRequest(stack: RealStack, method: 'post' | 'get', path: string, effect: () => void) {
  stack.msw.use(
    http[method](
      `*${path}`,
      () => {
        effect();
        return undefined;
      },
      { once: true },
    ),
  );
}

/**
 * Answers `POST …/appointment/availability` with the real BFF's answer minus the slots' `provider`,
 * as a deployment without that extension of ours would (the real stack always names it). The
 * request is still handed to the real BFF, and recorded, exactly as the stack does.
 */
export function withoutSlotProviders(stack: RealStack) {
  stack.msw.use(
    http.post('*/api/orders/:id/appointment/availability', async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      stack.requests.push({ method: 'POST', path: url.pathname, query: url.searchParams, headers: new Headers(request.headers), body: text ? JSON.parse(text) : undefined });
      const headers: Record<string, string> = {};
      request.headers.forEach((value, key) => {
        headers[key] = value;
      });
      headers.cookie = stack.cookie();
      const answer = await stack.bff.app.inject({ method: 'POST', url: url.pathname + url.search, headers, payload: text });
      if (answer.statusCode !== 200) return new HttpResponse(answer.rawPayload, { status: answer.statusCode, headers: { 'content-type': 'application/json' } });
      const body = answer.json<Availability>();
      const stripped = { ...body, slots: body.slots.map((d) => ({ ...d, slots: d.slots.map(({ provider: _provider, ...s }) => s) })) };
      return HttpResponse.json(stripped);
    }),
  );
}

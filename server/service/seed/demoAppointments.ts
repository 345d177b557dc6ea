import type { Random } from '../../lib/random';
import type { Database } from '../../store/db';
import { appointmentEvents, appointments, type ServiceSchema } from '../db/schema';
import { newAppointmentValues } from '../domain/appointments/newAppointment';
import { zipArea } from '../domain/appointments/zips';
import { providersServing } from '../providers';
import { providerAddress, providerPatient, type ProviderBookingRequest } from '../providers/types';

type Tx = Parameters<Parameters<Database<ServiceSchema>['transaction']>[0]>[0];

const HALF_HOUR = 30 * 60_000;

export interface DemoAppointmentOrder {
  teamId: string;
  orderId: string;
  userId: string;
  address: Record<string, unknown>;
  patient: Record<string, unknown>;
  /** When the order reached each low-level status. */
  reachedAt: Map<string, number>;
  lastLow: string;
}

/**
 * The appointment an at-home demo order would have, written as history (no webhook events, no
 * provider traffic): completed at the draw for orders past draw_completed, and a request the
 * provider has not given a time yet for orders waiting at appointment_pending. Orders whose zip no
 * provider serves get none, as in real life.
 */
export async function seedDemoAppointment(tx: Tx, rng: Random, o: DemoAppointmentOrder): Promise<boolean> {
  const zip = String(o.address.zip ?? '');
  const area = zipArea(zip);
  const providers = providersServing(zip);
  if (!area || providers.length === 0) return false;
  const provider = rng.pick(providers);
  const drawAt = o.reachedAt.get('draw_completed');
  const requested = o.lastLow === 'appointment_pending';
  if (drawAt === undefined && !requested) return false;

  const address = {
    first_line: String(o.address.first_line ?? ''),
    second_line: (o.address.second_line as string | null) ?? null,
    city: String(o.address.city ?? ''),
    state: String(o.address.state ?? ''),
    zip_code: zip,
    unit: null,
    access_notes: (o.address.access_notes as string | null) ?? null,
  };
  // The draw happened at the start of a half-hour slot before the sample was logged, within the
  // phlebotomists' working hours in the patient's zone (07:00-16:30), not at 4 in the morning.
  const start = drawAt !== undefined ? workingHoursSlotBefore(drawAt - rng.int(10, 50) * 60_000, area.zone) : null;
  const end = start ? new Date(start.getTime() + HALF_HOUR) : null;
  const bookedAt = new Date(o.reachedAt.get('appointment_scheduled') ?? o.reachedAt.get('appointment_pending') ?? Date.now() - 3_600_000);
  const request: ProviderBookingRequest = {
    appointment_id: '',
    order_id: o.orderId,
    slot_start: start?.toISOString() ?? null,
    slot_end: end?.toISOString() ?? null,
    iana_timezone: area.zone,
    address: providerAddress(address),
    patient: providerPatient(o.patient),
    appointment_notes: null,
  };
  const ticket = { ticket_id: `${provider.slug.replace('provider_', 'P')}-${rng.int(10_000_000, 99_999_999).toString(16).toUpperCase()}`, submitted_at: bookedAt.toISOString(), ready_at: bookedAt.toISOString(), outcome: 'confirmed' as const };
  const status = requested ? 'pending' : 'completed';
  const [row] = await tx
    .insert(appointments)
    .values({
      ...newAppointmentValues({ teamId: o.teamId, orderId: o.orderId, userId: o.userId, provider: provider.slug, ticket, request, status, address, area }),
      startAt: start,
      endAt: end,
      price: requested ? null : rng.pick([25, 30, 35, 40]),
      mode: requested ? 'request' : 'sync',
      eventData: requested ? { provider_request: request, requested: true } : { provider_request: request, async_confirmation: false },
      createdAt: bookedAt,
      updatedAt: new Date(drawAt ?? bookedAt.getTime()),
    })
    .returning({ id: appointments.id });
  const events = requested
    ? [{ status: 'pending', at: bookedAt, data: { requested: true, ticket_id: ticket.ticket_id } }]
    : [
        { status: 'reserved', at: bookedAt, data: { ticket_id: ticket.ticket_id } },
        { status: 'scheduled', at: new Date(bookedAt.getTime() + 1000), data: { ticket_id: ticket.ticket_id } },
        { status: 'completed', at: new Date(drawAt!), data: {} },
      ];
  await tx.insert(appointmentEvents).values(events.map((e) => ({ appointmentId: row!.id, status: e.status, data: e.data, createdAt: e.at })));
  return true;
}

/** The latest half-hour slot start at or before `at` whose local time (in `zone`) is 07:00-16:30. */
function workingHoursSlotBefore(at: number, zone: string): Date {
  const hourIn = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' });
  let t = Math.floor(at / HALF_HOUR) * HALF_HOUR;
  for (let i = 0; i < 96; i++, t -= HALF_HOUR) {
    const hour = Number(hourIn.format(new Date(t)));
    if (hour >= 7 && hour < 17) return new Date(t);
  }
  return new Date(t);
}

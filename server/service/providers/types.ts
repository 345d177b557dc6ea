/**
 * One interface for the at-home phlebotomy providers (provider_1..provider_4). An adapter knows its
 * service area, working hours in the local zone, slot lengths, priority slots, prices and capacity
 * per slot, and takes booking requests. Capacity itself is kept by the service (appointment_slots),
 * so every process and restart agrees on it.
 */

export interface SlotTemplate {
  provider: string;
  start: Date;
  end: Date;
  /** Whole dollars. */
  price: number;
  isPriority: boolean;
  capacity: number;
}

/** What the service sends a provider to book a slot; kept verbatim in the appointment's provider record. */
export interface ProviderBookingRequest {
  appointment_id: string;
  order_id: string;
  /** Null for a request without a slot. */
  slot_start: string | null;
  slot_end: string | null;
  iana_timezone: string;
  address: {
    first_line: string;
    second_line: string | null;
    city: string;
    state: string;
    zip_code: string;
    access_notes: string | null;
  };
  patient: { first_name: string | null; last_name: string | null; phone_number: string | null };
  appointment_notes: string | null;
}

/** Simulated provider behaviour: how long a confirmation takes and how often the provider refuses. */
export interface ProviderBehaviour {
  latency_ms: number;
  failure_rate: number;
}

/**
 * A booking handed to the provider: a ticket whose answer is known at `ready_at` (the provider's
 * confirmation latency). Persisted, so a restarted worker can still read the answer.
 */
export interface ProviderTicket {
  ticket_id: string;
  submitted_at: string;
  ready_at: string;
  outcome: 'confirmed' | 'rejected';
}

export type TicketState = 'pending' | 'confirmed' | 'rejected';

export interface PhlebotomyProvider {
  readonly slug: string;
  readonly name: string;
  /** Whether the provider serves the zip's area. */
  serves(zip: string): boolean;
  /** The provider's slots on a local calendar date (YYYY-MM-DD) in the zone, in start order. */
  slotsOn(zone: string, date: string): SlotTemplate[];
  /** Hands a booking to the provider; the answer arrives at the ticket's ready_at. */
  submit(request: ProviderBookingRequest, behaviour: ProviderBehaviour, now?: Date, random?: () => number): ProviderTicket;
  /** The ticket's state at `now`. */
  poll(ticket: ProviderTicket, now?: Date): TicketState;
}

type AddressInput = { first_line: string; second_line?: string | null; city: string; state: string; zip_code: string; access_notes?: string | null };

/** The address as a provider receives it, access notes included (they go with every booking and reschedule). */
export function providerAddress(address: AddressInput): ProviderBookingRequest['address'] {
  return {
    first_line: address.first_line,
    second_line: address.second_line ?? null,
    city: address.city,
    state: address.state,
    zip_code: address.zip_code,
    access_notes: address.access_notes ?? null,
  };
}

/** The patient as a provider receives it, from the order's patient details. */
export function providerPatient(details: Record<string, unknown>): ProviderBookingRequest['patient'] {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return { first_name: str(details.first_name), last_name: str(details.last_name), phone_number: str(details.phone_number) };
}

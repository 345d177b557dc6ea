import type { ProviderBookingRequest, ProviderTicket } from '../../providers/types';
import type { ZipArea } from './zips';

export interface NewAppointment {
  id?: string;
  teamId: string;
  orderId: string;
  userId: string;
  provider: string;
  /** The provider's first answer to `request`: its id is the appointment's provider_id. */
  ticket: ProviderTicket;
  request: ProviderBookingRequest;
  status: string;
  address: Record<string, unknown>;
  area: Pick<ZipArea, 'zone' | 'lng' | 'lat'>;
}

/**
 * The columns every new appointment row shares (book, request, the demo seed): who it is for, the
 * provider and its ticket, the status (event_status starts equal), and the place with its zone.
 * Callers add what is theirs: the slot, the mode, notes, event data.
 */
export function newAppointmentValues(a: NewAppointment) {
  return {
    ...(a.id !== undefined && { id: a.id }),
    teamId: a.teamId,
    orderId: a.orderId,
    userId: a.userId,
    provider: a.provider,
    providerId: a.ticket.ticket_id,
    status: a.status,
    eventStatus: a.status,
    address: a.address,
    location: { lng: a.area.lng, lat: a.area.lat },
    ianaTimezone: a.area.zone,
    providerRecord: { request: a.request, tickets: [a.ticket] },
  };
}

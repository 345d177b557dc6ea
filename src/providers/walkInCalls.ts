/**
 * The BFF's walk-in calls (docs/bff-api.md): an order's nearest patient service centers, a center's
 * slots, the visit and its changes, and an on-site order's "draw completed". POSTs go through
 * httpClient, which adds the CSRF header; errors keep the BFF's `code` (slot_taken, ...) in `body`.
 */
import type { DrawCompletedAnswer, WalkInAvailability, WalkInCancel, WalkInCenters, WalkInVisit } from '../../server/bff/api';
import { httpClient } from './httpClient';

export interface WalkInCalls {
  /** The nearest centers within `radius` miles (the BFF's default when left out). */
  getWalkInCenters(orderId: string, radius?: string): Promise<WalkInCenters>;
  getWalkInAvailability(orderId: string, siteCode: string, startDate?: string): Promise<WalkInAvailability>;
  /** The order's latest walk-in visit; `visit` is null when it has none. */
  getWalkInVisit(orderId: string): Promise<WalkInVisit>;
  bookWalkIn(orderId: string, bookingKey: string): Promise<WalkInVisit>;
  rescheduleWalkIn(orderId: string, bookingKey: string): Promise<WalkInVisit>;
  cancelWalkIn(orderId: string, body: WalkInCancel): Promise<WalkInVisit>;
  markDrawCompleted(orderId: string): Promise<DrawCompletedAnswer>;
}

async function getJson<T>(url: string): Promise<T> {
  const { json } = await httpClient(url);
  return json as T;
}

async function postJson<T>(url: string, body: unknown = {}): Promise<T> {
  const { json } = await httpClient(url, { method: 'POST', body: JSON.stringify(body), headers: new Headers({ 'Content-Type': 'application/json' }) });
  return json as T;
}

/** The calls, against the BFF at `apiUrl` (the data provider's). */
export function walkInCalls(apiUrl: string): WalkInCalls {
  const orderUrl = (orderId: string, rest: string) => `${apiUrl}/orders/${encodeURIComponent(orderId)}/${rest}`;
  return {
    getWalkInCenters: (orderId, radius) => getJson(orderUrl(orderId, `walk-in/centers${radius ? `?${new URLSearchParams({ radius })}` : ''}`)),
    getWalkInAvailability: (orderId, siteCode, startDate) =>
      getJson(orderUrl(orderId, `walk-in/availability?${new URLSearchParams({ site_code: siteCode, ...(startDate ? { start_date: startDate } : {}) })}`)),
    getWalkInVisit: (orderId) => getJson(orderUrl(orderId, 'walk-in/visit')),
    bookWalkIn: (orderId, bookingKey) => postJson(orderUrl(orderId, 'walk-in/book'), { booking_key: bookingKey }),
    rescheduleWalkIn: (orderId, bookingKey) => postJson(orderUrl(orderId, 'walk-in/reschedule'), { booking_key: bookingKey }),
    cancelWalkIn: (orderId, body) => postJson(orderUrl(orderId, 'walk-in/cancel'), body),
    markDrawCompleted: (orderId) => postJson(orderUrl(orderId, 'draw-completed')),
  };
}

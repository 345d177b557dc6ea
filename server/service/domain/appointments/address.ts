import { createHash } from 'node:crypto';
import { isIanaTimeZone, type USAddress } from '../../../contract';
import type { OrderRow } from '../orders/present';
import { Invalid } from '../errors';
import { zipArea, type ZipArea } from './zips';

/** The zip's area (state, IANA zone, location); 422 when the zip is not a US state's or the state disagrees with it. */
export function resolveArea(address: Pick<USAddress, 'state' | 'zip_code'>, loc: (string | number)[]): ZipArea {
  const area = zipArea(address.zip_code);
  if (!area) throw new Invalid([...loc, 'zip_code'], `zip_code ${address.zip_code} is not in a known US zip code area`, 'value_error.zip_code');
  if (area.state !== address.state) {
    throw new Invalid([...loc, 'state'], `state ${address.state} does not match zip_code ${address.zip_code} (${area.state})`, 'value_error.state');
  }
  if (!isIanaTimeZone(area.zone)) throw new Error(`zip table holds a non-IANA zone ${area.zone}`);
  return area;
}

const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase().replace(/\s+/g, ' ') : '');

/**
 * Digest of the place a booking key was offered for: first line, city, state and the 5-digit zip
 * (second_line, unit and access_notes do not change where the phlebotomist goes).
 */
export function addressDigest(address: { first_line: string; city: string; state: string; zip_code: string }): string {
  const parts = [norm(address.first_line), norm(address.city), norm(address.state), address.zip_code.slice(0, 5)];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

/** The order's patient address in USAddress form (orders carry `zip`, appointments `zip_code`). */
export function orderUsAddress(order: OrderRow): USAddress {
  const a = order.patientAddress as Record<string, string | null | undefined>;
  return {
    first_line: String(a.first_line ?? ''),
    second_line: a.second_line ?? null,
    city: String(a.city ?? ''),
    state: String(a.state ?? '') as USAddress['state'],
    zip_code: String(a.zip ?? ''),
    access_notes: a.access_notes ?? null,
  };
}

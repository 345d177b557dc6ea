/**
 * Addresses as the appointment calls take them (`zip_code`, no nulls). The order keeps its
 * patient address with `zip`; an appointment keeps its own with `zip_code`.
 */
import type { AddressLike } from '../../components/AddressBlock';
import type { AddressBody } from '../../appointments/types';

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export function toAddressBody(a: AddressLike | null | undefined): AddressBody {
  const body: AddressBody = {
    first_line: str(a?.first_line),
    city: str(a?.city),
    // A state read off a record: the BFF checks it against the US states and says so if it is not one.
    state: str(a?.state) as AddressBody['state'],
    zip_code: str(a?.zip_code) || str(a?.zip),
  };
  // `unit` is the deprecated twin of `second_line`.
  const second = str(a?.second_line) || str(a?.unit);
  if (second) body.second_line = second;
  const access = str(a?.access_notes);
  if (access) body.access_notes = access;
  return body;
}

/**
 * "New order for this patient": the order form's starting values. The patient's details and
 * address (with its access notes) are copied from their last order, because they rarely change
 * between draws and retyping them is where typos come from; every value stays editable. What is
 * particular to one order (tests, lab account, clinical notes) is not copied.
 */
import type { OrderFormValues } from '../orders/createOrderBody';
import type { OrderRecord } from '../orders/types';

const DETAILS = ['first_name', 'last_name', 'dob', 'gender', 'phone_number', 'email'] as const;
const ADDRESS = ['receiver_name', 'first_line', 'second_line', 'city', 'state', 'zip', 'phone_number', 'access_notes'] as const;

/** The named string fields of a loosely typed wire object; anything else (null, numbers, objects) is left out. */
function pick(source: Record<string, unknown> | null | undefined, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = source?.[field];
    if (typeof value === 'string' && value.trim() !== '') out[field] = value;
  }
  return out;
}

export function orderPrefill(userId: string, lastOrder?: Pick<OrderRecord, 'patient_details' | 'patient_address'> | null): OrderFormValues {
  if (!lastOrder) return { user_id: userId };
  const patient_details = pick(lastOrder.patient_details, DETAILS);
  // The date input takes YYYY-MM-DD; a service may answer the birth date as a date-time.
  if (patient_details.dob) patient_details.dob = patient_details.dob.slice(0, 10);
  const patient_address = pick(lastOrder.patient_address, ADDRESS);
  return {
    user_id: userId,
    ...(Object.keys(patient_details).length > 0 && { patient_details }),
    ...(Object.keys(patient_address).length > 0 && { patient_address }),
  };
}

export { BILLING_TYPES, COLLECTION_METHODS, LAB_NAMES, choicesOf, labelOf } from '../components/labLabels';

/**
 * The order form's fixed choices and checks. They mirror `server/contract` (labs.ts, orders.ts),
 * which the dashboard may only import types from; keep them in step with it.
 */

/** `ZIP_CODE` of server/contract/orders.ts: the service refuses any other zip. */
export const ZIP_CODE = /^\d{5}(-\d{4})?$/;
/** `NOTES_MAX` of server/contract/orders.ts: clinical and access notes. */
export const NOTES_MAX = 1000;

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'PR',
] as const;

export const GENDERS: Record<string, string> = { female: 'Female', male: 'Male', other: 'Other', unknown: 'Unknown' };

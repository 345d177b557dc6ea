import type { GENDERS as GENDER_VALUES } from '../../server/contract';

export { BILLING_TYPES, COLLECTION_METHODS, LAB_NAMES, choicesOf, labelOf } from '../components/labLabels';

/** The order form's fixed choices and checks, from the service's contract (server/contract). */
export { NOTES_MAX, US_STATES, ZIP_CODE } from '../../server/contract';

/** Labels of the contract's genders (the compiler checks there is one for each). */
export const GENDERS: Record<string, string> = {
  female: 'Female',
  male: 'Male',
  other: 'Other',
  unknown: 'Unknown',
} satisfies Record<(typeof GENDER_VALUES)[number], string>;

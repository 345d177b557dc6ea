/**
 * Labels of the lab-ordering enums shared by several resources, one for each value of the
 * service's contract (server/contract/labs.ts; the compiler checks they match). Every one of these
 * enums may gain values: use `labelOf`, which falls back to the raw value.
 */
import type { BILLING_TYPES as BILLING_TYPE_VALUES, COLLECTION_METHODS as COLLECTION_METHOD_VALUES } from '../../server/contract';

export const COLLECTION_METHODS: Record<string, string> = {
  testkit: 'Test kit',
  walk_in_test: 'Walk-in',
  at_home_phlebotomy: 'At-home phlebotomy',
  on_site_collection: 'On-site collection',
} satisfies Record<(typeof COLLECTION_METHOD_VALUES)[number], string>;

export const BILLING_TYPES: Record<string, string> = {
  client_bill: 'Client bill',
  commercial_insurance: 'Commercial insurance',
  patient_bill_passthrough: 'Patient bill (pass-through)',
  patient_bill: 'Patient bill',
} satisfies Record<(typeof BILLING_TYPE_VALUES)[number], string>;

export const LAB_NAMES: Record<string, string> = {
  quest: 'Quest',
  sonora_quest: 'Sonora Quest',
  labcorp: 'Labcorp',
  bioreference: 'BioReference',
};

/** A known value's label, or the raw value (these enums may gain values). */
export const labelOf = (labels: Record<string, string>, value: string | null | undefined): string =>
  value == null || value === '' ? '' : Object.hasOwn(labels, value) ? labels[value]! : value;

export const choicesOf = (labels: Record<string, string>) => Object.entries(labels).map(([id, name]) => ({ id, name }));

/**
 * Labels of the lab-ordering enums shared by several resources. They mirror server/contract/labs.ts
 * (types only may be imported from there). Every one of these enums may gain values: use `labelOf`,
 * which falls back to the raw value.
 */

export const COLLECTION_METHODS: Record<string, string> = {
  testkit: 'Test kit',
  walk_in_test: 'Walk-in',
  at_home_phlebotomy: 'At-home phlebotomy',
  on_site_collection: 'On-site collection',
};

export const BILLING_TYPES: Record<string, string> = {
  client_bill: 'Client bill',
  commercial_insurance: 'Commercial insurance',
  patient_bill_passthrough: 'Patient bill (pass-through)',
  patient_bill: 'Patient bill',
};

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

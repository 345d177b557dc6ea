import { z } from 'zod';
import { DateTime, Uuid } from './common';

/**
 * Lab catalogue wire shapes (wire-facts §5, §6). Enumerations the interface marks non-exhaustive,
 * or that may grow, are plain strings in answers so that a newer value never breaks a reader.
 */
export const COLLECTION_METHODS = ['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection'] as const;
export const CollectionMethod = z.enum(COLLECTION_METHODS);
export const SAMPLE_TYPES = ['dried_blood_spot', 'arm_collector', 'serum', 'saliva', 'urine'] as const;
export const BILLING_TYPES = ['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill'] as const;
export const BillingType = z.enum(BILLING_TYPES);
export const LAB_ACCOUNT_STATUSES = ['active', 'pending', 'suspended'] as const;
export const DELEGATED_FLOWS = ['order_delegated', 'result_delegated', 'fully_delegated', 'not_delegated'] as const;

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'PR',
] as const;
export const UsState = z.enum(US_STATES);

export const Lab = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  first_line_address: z.string(),
  city: z.string(),
  zipcode: z.string(),
  collection_methods: z.array(z.string()),
  sample_types: z.array(z.string()),
});
export type Lab = z.infer<typeof Lab>;

export const LabAccount = z.object({
  id: Uuid,
  lab: z.string().describe('Lab slug: quest, sonora_quest, labcorp, bioreference, …'),
  org_id: z.string().nullable().optional(),
  status: z.string().describe('active, pending or suspended; may gain values'),
  delegated_flow: z.string().describe('order_delegated, result_delegated, fully_delegated or not_delegated'),
  provider_account_id: z.string(),
  account_name: z.string().nullable().optional(),
  default_clinical_notes: z.string().nullable().optional(),
  business_units: z.array(z.string()).nullable().optional(),
  allowed_billing: z.record(z.string(), z.array(z.string())).describe('Billing type → US states where it is allowed'),
  team_id_allowlist: z.array(z.string()),
});
export type LabAccount = z.infer<typeof LabAccount>;

export const LabAccountsQuery = z.object({
  lab_account_id: Uuid.optional(),
  status: z
    .preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(LAB_ACCOUNT_STATUSES))
    .optional()
    .describe('Case-insensitive'),
});
export const LabAccountsResponse = z.object({ data: z.array(LabAccount) });

export const Loinc = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  code: z.string(),
  unit: z.string().nullable().optional(),
});

export const ExpectedResult = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  lab_id: z.number().int().nullable().optional(),
  provider_id: z.string().nullable().optional(),
  required: z.boolean(),
  loinc: Loinc.nullable().optional(),
});

export const AoeAnswer = z.object({ id: z.number().int(), code: z.string(), value: z.string() });
export const AoeQuestion = z.object({
  id: z.number().int(),
  required: z.boolean(),
  code: z.string(),
  value: z.string(),
  type: z.string().describe('choice, text, numeric, multi_choice'),
  sequence: z.number().int(),
  answers: z.array(AoeAnswer),
  constraint: z.string().nullable().optional(),
  default: z.string().nullable().optional(),
});

export const Marker = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable().optional(),
  lab_id: z.number().int().nullable().optional(),
  provider_id: z.string().nullable().optional(),
  type: z.string().nullable().optional().describe('biomarker or panel'),
  unit: z.string().nullable().optional(),
  price: z.string().nullable().optional().describe('A decimal string, USD'),
  aoe: z.object({ questions: z.array(AoeQuestion) }).nullable().optional(),
  a_la_carte_enabled: z.boolean().nullable().optional(),
  common_tat_days: z.number().int().nullable().optional(),
  worst_case_tat_days: z.number().int().nullable().optional(),
  is_orderable: z.boolean().nullable().optional(),
});
export const MarkerComplete = Marker.extend({ expected_results: z.array(ExpectedResult) });
export type MarkerComplete = z.infer<typeof MarkerComplete>;

export const MARKERS_DEFAULT_SIZE = 50;
export const MARKERS_MAX_SIZE = 100;

const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(50).optional());
const queryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

export const MarkersQuery = z.object({
  lab_slug: z.string().max(64).optional().describe('Only markers of this lab'),
  lab_id: repeated(z.coerce.number().int().positive()).describe('Repeatable: lab_id=1&lab_id=2'),
  name: z.string().max(200).optional().describe('Name or test code of a biomarker or panel (substring, case-insensitive)'),
  a_la_carte_enabled: queryBoolean.optional(),
  lab_account_id: Uuid.optional().describe("Only markers of this lab account's lab"),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MARKERS_MAX_SIZE)
    .default(MARKERS_DEFAULT_SIZE)
    .describe(`Page size: default ${MARKERS_DEFAULT_SIZE}, maximum ${MARKERS_MAX_SIZE}`),
});
export const MarkersResponse = z.object({
  markers: z.array(MarkerComplete),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  pages: z.number().int(),
});

export const LabTest = z.object({
  id: Uuid,
  slug: z.string(),
  name: z.string(),
  sample_type: z.string(),
  method: z.string(),
  price: z.number(),
  is_active: z.boolean(),
  status: z.string().describe('active, pending_approval, inactive'),
  fasting: z.boolean().nullable().optional(),
  lab: Lab.nullable().optional(),
  markers: z.array(Marker).nullable().optional(),
  is_delegated: z.boolean().nullable().optional(),
  auto_generated: z.boolean().nullable().optional(),
  has_collection_instructions: z.boolean().nullable().optional(),
  common_tat_days: z.number().int().nullable().optional(),
  worst_case_tat_days: z.number().int().nullable().optional(),
});
export type LabTest = z.infer<typeof LabTest>;

export const LabTestsQuery = z.object({
  lab_slug: z.string().max(64).optional(),
  collection_method: z.enum(COLLECTION_METHODS).optional(),
  status: z.string().max(40).optional(),
  name: z.string().max(200).optional(),
  generation_method: z.enum(['auto', 'manual', 'all']).default('manual'),
  order_key: z.enum(['price', 'created_at', 'updated_at']).optional(),
  order_direction: z.enum(['asc', 'desc']).default('asc'),
});
export const LabTestParams = z.object({ lab_test_id: Uuid });
export const LabTestMeta = z.object({ created_at: DateTime, updated_at: DateTime });

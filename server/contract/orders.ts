import { z } from 'zod';
import { DateTime, hasNoNul, NO_NUL_MESSAGE, Uuid } from './common';
import { BillingType, COLLECTION_METHODS, CollectionMethod, LabTest, UsState } from './labs';
import { Consent, HealthInsurance, IcdCode, OrderHealthInsurance, Physician, RecordedConsent } from './clinical';
import { INTERPRETATIONS } from './parser';

/** Free text: at most 1000 characters (clinical notes, access notes). */
export const NOTES_MAX = 1000;
const notes = (what: string) =>
  z.string().max(NOTES_MAX, `${what} must be at most ${NOTES_MAX} characters`).refine(hasNoNul, NO_NUL_MESSAGE);

export const ZIP_CODE = /^\d{5}(-\d{4})?$/;
export const ZipCode = z.string().regex(ZIP_CODE, 'must be five digits, optionally followed by a hyphen and four digits');

const text = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max).refine(hasNoNul, NO_NUL_MESSAGE);

export const ORDER_TOP_LEVEL_STATUSES = ['received', 'collecting_sample', 'sample_with_lab', 'completed', 'cancelled', 'failed'] as const;
export const ORDER_LOW_LEVEL_STATUSES = [
  'ordered', 'requisition_created', 'requisition_bypassed', 'transit_customer', 'out_for_delivery', 'with_customer',
  'transit_lab', 'delivered_to_lab', 'completed', 'failure_to_deliver_to_lab', 'failure_to_deliver_to_customer',
  'problem_in_transit_lab', 'problem_in_transit_customer', 'sample_error', 'appointment_scheduled',
  'appointment_cancelled', 'appointment_pending', 'draw_completed', 'cancelled', 'lost', 'do_not_process',
  'partial_results', 'awaiting_registration', 'registered', 'redraw_available',
] as const;
/** Low-level statuses of orders someone in lab operations should look at: problems in transit and failures. */
export const NEEDS_ATTENTION_LOW_STATUSES = [
  'problem_in_transit_customer',
  'problem_in_transit_lab',
  'failure_to_deliver_to_customer',
  'failure_to_deliver_to_lab',
  'sample_error',
  'lost',
  'redraw_available',
] as const;
export const GENDERS = ['female', 'male', 'other', 'unknown'] as const;

export const PatientDetails = z.object({
  first_name: text(100),
  last_name: text(100),
  dob: z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'must be a date YYYY-MM-DD'),
  gender: z.enum(GENDERS),
  phone_number: text(40),
  email: z.email().max(320),
  medical_proxy: z.record(z.string(), z.unknown()).nullable().optional(),
  race: z.string().max(80).nullable().optional(),
  ethnicity: z.string().max(80).nullable().optional(),
  sexual_orientation: z.string().max(80).nullable().optional(),
  gender_identity: z.string().max(80).nullable().optional(),
  household_income: z.number().nullable().optional(),
  household_size: z.number().int().nullable().optional(),
});

export const PatientAddress = z.object({
  receiver_name: z.string().max(200).nullable().optional(),
  first_line: text(200),
  second_line: z.string().max(200).nullable().optional(),
  city: text(100),
  state: UsState,
  zip: ZipCode,
  country: z.string().trim().min(2).max(56).default('US'),
  phone_number: z.string().max(40).nullable().optional(),
  access_notes: notes('access_notes').nullable().optional().describe('Gate codes, parking, entrance directions; at most 1000 characters'),
});

export const OrderSet = z.object({
  lab_test_ids: z.array(Uuid).max(20).nullable().optional(),
  add_on: z
    .object({
      marker_ids: z.array(z.number().int().positive()).max(100).nullable().optional(),
      provider_ids: z.array(z.string().max(40)).max(100).nullable().optional(),
    })
    .nullable()
    .optional(),
  lab_account_id: Uuid.nullable().optional(),
});

export const UPDATE_REASONS = ['INCORRECT_LAB'] as const;

export const CreateOrderBody = z
  .object({
    user_id: Uuid,
    patient_details: PatientDetails,
    patient_address: PatientAddress,
    lab_test_id: Uuid.nullable().optional(),
    order_set: OrderSet.nullable().optional(),
    collection_method: CollectionMethod.nullable().optional(),
    physician: Physician.nullable().optional(),
    health_insurance: HealthInsurance.nullable().optional().describe('Required when billing_type is commercial_insurance'),
    priority: z.boolean().nullable().optional(),
    billing_type: BillingType.nullable().optional(),
    icd_codes: z.array(IcdCode).max(12).nullable().optional().describe('ICD-10-CM diagnosis codes (format-checked; POST /v3/insurance/validate_icd_codes checks them against the code set)'),
    consents: z.array(Consent).max(10).nullable().optional(),
    activate_by: z.string().max(40).nullable().optional(),
    aoe_answers: z
      .array(z.object({ marker_id: z.number().int(), question_id: z.number().int(), answer: z.string().max(500) }))
      .max(100)
      .nullable()
      .optional(),
    passthrough: z.string().max(2000).nullable().optional(),
    lab_account_id: Uuid.nullable().optional().describe('The lab account to order under; omitted, the service picks one'),
    creator_member_id: z.string().max(100).nullable().optional(),
    clinical_notes: notes('clinical_notes').nullable().optional().describe('Printed on the requisition; at most 1000 characters'),
    update_reason: z.enum(UPDATE_REASONS).nullable().optional().describe('INCORRECT_LAB: this order replaces original_order_id'),
    original_order_id: Uuid.nullable().optional().describe('The order this one replaces (with update_reason)'),
  })
  .superRefine((b, ctx) => {
    if (!b.lab_test_id && !b.order_set?.lab_test_ids?.length && !b.order_set?.add_on?.marker_ids?.length) {
      ctx.addIssue({ code: 'custom', path: ['lab_test_id'], message: 'give lab_test_id or an order_set with lab tests or markers' });
    }
    if (b.billing_type === 'commercial_insurance' && !b.health_insurance) {
      ctx.addIssue({ code: 'custom', path: ['health_insurance'], message: 'required when billing_type is commercial_insurance: payor_code, insurance_id and the relationship to the subscriber' });
    }
    if (b.update_reason && !b.original_order_id) {
      ctx.addIssue({ code: 'custom', path: ['original_order_id'], message: 'required with update_reason' });
    }
    if (b.original_order_id && !b.update_reason) {
      ctx.addIssue({ code: 'custom', path: ['update_reason'], message: 'required with original_order_id' });
    }
  });
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

export const ImportOrderBody = z.object({
  user_id: Uuid,
  billing_type: BillingType,
  order_set: OrderSet,
  collection_method: CollectionMethod,
  patient_details: PatientDetails,
  patient_address: PatientAddress.extend({ receiver_name: text(200) }),
  sample_id: text(100),
  physician: Physician.nullable().optional(),
  lab_account_id: Uuid.nullable().optional(),
});
export type ImportOrderBody = z.infer<typeof ImportOrderBody>;

export const OrderEvent = z.object({ id: z.number().int(), created_at: DateTime, status: z.string() });

export const Shipment = z.object({
  id: z.string(),
  outbound_tracking_number: z.string().nullable().optional(),
  outbound_tracking_url: z.string().nullable().optional(),
  inbound_tracking_number: z.string().nullable().optional(),
  inbound_tracking_url: z.string().nullable().optional(),
  outbound_courier: z.string().nullable().optional(),
  inbound_courier: z.string().nullable().optional(),
  notes: z.string().nullable().optional(),
});

export const OrderDetails = z.object({
  type: z.string().describe('walk_in_test, testkit, at_home_phlebotomy, on_site_collection'),
  data: z
    .object({
      id: z.string(),
      created_at: DateTime,
      updated_at: DateTime,
      appointment_id: z.string().nullable().optional(),
      shipment: Shipment.nullable().optional(),
    })
    .nullable()
    .optional(),
});

/** ClientFacingOrder (wire-facts §4.5) plus the newer fields the interface announces. */
export const Order = z.object({
  user_id: Uuid,
  id: Uuid,
  team_id: Uuid,
  patient_details: z.record(z.string(), z.unknown()).nullable().optional(),
  patient_address: z.record(z.string(), z.unknown()).nullable().optional(),
  lab_test: LabTest,
  details: OrderDetails,
  sample_id: z.string().nullable().optional(),
  notes: z.string().nullable().optional(),
  created_at: DateTime,
  updated_at: DateTime,
  events: z.array(OrderEvent),
  status: z.string().nullable().optional().describe('Top-level status; may gain values'),
  low_level_status: z.string().nullable().optional().describe('May gain values'),
  last_event: OrderEvent.nullable().optional(),
  physician: z.object({ first_name: z.string(), last_name: z.string(), npi: z.string() }).nullable().optional(),
  health_insurance_id: z.string().nullable().optional(),
  health_insurance: OrderHealthInsurance.nullable().optional().describe('Extension: the insurance the order bills (without card images)'),
  consents: z.array(RecordedConsent).nullable().optional().describe('Extension: the consents given, each with its time and version'),
  requisition_form_url: z.string().nullable().optional(),
  priority: z.boolean().nullable().optional(),
  shipping_details: z.record(z.string(), z.unknown()).nullable().optional(),
  activate_by: z.string().nullable().optional(),
  passthrough: z.string().nullable().optional(),
  billing_type: z.string().nullable().optional(),
  icd_codes: z.array(z.string()).nullable().optional(),
  has_abn: z.boolean(),
  interpretation: z.string().nullable().optional(),
  has_missing_results: z.boolean().nullable().optional(),
  expected_result_by_date: z.string().nullable().optional(),
  worst_case_result_by_date: z.string().nullable().optional(),
  lab_account_id: Uuid.nullable().optional(),
  clinical_notes: z.string().nullable().optional(),
  origin: z.string().nullable().optional().describe('created or imported'),
  update_reason: z.string().nullable().optional(),
  original_order_id: Uuid.nullable().optional(),
});
export type Order = z.infer<typeof Order>;

export const PostOrderResponse = z.object({ order: Order, status: z.string(), message: z.string() });
export type PostOrderResponse = z.infer<typeof PostOrderResponse>;

export const ORDERS_DEFAULT_SIZE = 50;
export const ORDERS_MAX_SIZE = 100;
const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(50).optional());

export const OrdersQuery = z.object({
  search_input: z.string().max(200).optional().describe('Order id, sample id, patient name or client_user_id'),
  start_date: z.string().max(40).optional().describe('Created at or after (ISO date or date-time)'),
  end_date: z.string().max(40).optional().describe('Created at or before'),
  updated_start_date: z.string().max(40).optional(),
  updated_end_date: z.string().max(40).optional(),
  status: repeated(z.enum(ORDER_LOW_LEVEL_STATUSES)).describe('Low-level status, repeatable'),
  order_key: z.enum(['created_at', 'patient_name', 'last_status']).default('created_at'),
  order_direction: z.enum(['asc', 'desc']).default('desc'),
  order_type: repeated(z.enum(COLLECTION_METHODS)).describe('Collection method, repeatable'),
  user_id: Uuid.optional(),
  patient_name: z.string().max(200).optional(),
  order_ids: repeated(Uuid),
  interpretation: repeated(z.string().max(40)).describe('Extension: the results’ interpretation (normal, abnormal, critical, unknown; repeatable)'),
  critical_acknowledged: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .describe('Extension: only orders with a critical result that has (true) or has not (false) been acknowledged'),
  include_critical_unacknowledged: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .describe(
      'Extension: with `status`, also orders whose critical result nobody has acknowledged, whatever their status (the "needs attention" view: `status` OR an unacknowledged critical value; the other filters still apply)',
    ),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(ORDERS_MAX_SIZE).default(ORDERS_DEFAULT_SIZE),
});
export const OrdersResponse = z.object({
  orders: z.array(Order),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type OrdersResponse = z.infer<typeof OrdersResponse>;
export const OrderParams = z.object({ order_id: Uuid });
/** Optional body of the sandbox walk: what the results of a completed order say. */
export const SimulateOrderBody = z
  .object({
    interpretation: z
      .enum(INTERPRETATIONS)
      .nullable()
      .optional()
      .describe('What the simulated results say: `critical` puts one value past its critical limit (422 when none of the order’s tests has critical limits), `abnormal` one to three outside their range, `normal` (the default) none'),
    result_types: z
      .array(z.string().max(60))
      .max(50)
      .nullable()
      .optional()
      .describe('Result types the report must contain besides numeric ones: `range` (a value below the measuring range, "<0.3"), `comment`, `coded_value`'),
    has_missing_results: z.boolean().nullable().optional().describe('Whether the final report leaves a result out (with its inferred_failure_type); false unless given'),
  })
  .nullish();
export type SimulateOrderBody = z.infer<typeof SimulateOrderBody>;

export const SimulateOrderQuery = z.object({
  final_status: z.string().max(80).describe('An OrderStatus such as completed.testkit.completed'),
  delay: z.coerce.number().int().min(0).max(3600).default(0).describe('Seconds between simulated events'),
});

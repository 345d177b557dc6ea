/**
 * The order form's values → the service's CreateOrderBody (server/contract/orders.ts). Field
 * names are the body's own paths (`patient_address.zip`), so the service's 422 errors, which the
 * BFF keys by those paths, land on the right inputs. Empty optional values are left out.
 */
import type { CreateOrderBody } from '../../server/contract';
import { AOE_KEY } from './form/AoeSection';
import { splitIcdCodes } from './form/DiagnosisSection';

export interface OrderFormValues {
  user_id?: string;
  lab_account_id?: string | null;
  lab_test_id?: string | null;
  order_set?: { add_on?: { marker_ids?: number[] | null } | null } | null;
  collection_method?: string | null;
  billing_type?: string | null;
  patient_details?: Record<string, unknown>;
  patient_address?: Record<string, unknown>;
  clinical_notes?: string | null;
  physician?: Record<string, unknown> | null;
  /** The ICD-10 codes as typed: "E11.9, I10". */
  icd_codes_text?: string | null;
  health_insurance?: (Record<string, unknown> & { responsible_details?: Record<string, unknown> | null }) | null;
  consent_types?: string[] | null;
  consent_version?: string | null;
  /** Answers to the lab's questions by `m<marker>_q<question>` (see form/AoeSection.tsx). */
  aoe?: Record<string, unknown> | null;
}

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

/** Drops absent, null and blank values; trims nothing (the service trims what it trims). */
function compact(obj: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj ?? {}).filter(([, v]) => present(v)));
}

export function toCreateOrderBody(values: OrderFormValues): Partial<CreateOrderBody> & Record<string, unknown> {
  const markerIds = (values.order_set?.add_on?.marker_ids ?? []).filter((id) => typeof id === 'number');
  const address = compact(values.patient_address);
  const body: Record<string, unknown> = {
    user_id: values.user_id,
    patient_details: compact(values.patient_details),
    patient_address: { country: 'US', ...address },
  };
  if (present(values.lab_account_id)) body.lab_account_id = values.lab_account_id;
  // The service takes either lab_test_id alone, or an order set of lab tests plus add-on markers.
  if (markerIds.length) {
    body.order_set = {
      ...(present(values.lab_test_id) && { lab_test_ids: [values.lab_test_id] }),
      add_on: { marker_ids: markerIds },
    };
  } else if (present(values.lab_test_id)) {
    body.lab_test_id = values.lab_test_id;
  }
  if (present(values.collection_method)) body.collection_method = values.collection_method;
  if (present(values.billing_type)) body.billing_type = values.billing_type;
  if (present(values.clinical_notes)) body.clinical_notes = values.clinical_notes;
  Object.assign(body, clinicalParts(values));
  return body;
}

/** Physician, diagnosis codes, insurance (billed to insurance only), consents and the lab's questions. */
function clinicalParts(values: OrderFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const physician = compact(values.physician ?? undefined);
  if (Object.keys(physician).length) out.physician = physician;
  const codes = [...new Set(splitIcdCodes(values.icd_codes_text))];
  if (codes.length) out.icd_codes = codes;
  if (values.billing_type === 'commercial_insurance' && values.health_insurance) {
    const { responsible_details: subscriber, ...insurance } = values.health_insurance;
    const relationship = insurance.responsible_relationship ?? 'Self';
    out.health_insurance = {
      ...compact(insurance),
      responsible_relationship: relationship,
      ...(relationship !== 'Self' &&
        subscriber && {
          responsible_details: { ...compact(subscriber), address: { country: 'US', ...compact(subscriber.address as Record<string, unknown> | undefined) } },
        }),
    };
  }
  // The service records when each consent was given (now); the form sends what and which version.
  const consents = (values.consent_types ?? []).filter(present);
  if (consents.length) {
    out.consents = consents.map((consentType) => ({ consentType, ...(present(values.consent_version) && { version: values.consent_version }) }));
  }
  const answers = Object.entries(values.aoe ?? {}).flatMap(([key, answer]) => {
    const ids = AOE_KEY.exec(key);
    const text = Array.isArray(answer) ? answer.join(',') : answer;
    if (!ids || !present(text)) return [];
    return [{ marker_id: Number(ids[1]), question_id: Number(ids[2]), answer: String(text) }];
  });
  if (answers.length) out.aoe_answers = answers;
  return out;
}

/**
 * The BFF keys errors by the body's paths; the form's inputs are not all at the same paths (a lab
 * test sent in an order set is still the "Lab test" input). Moves each error to the input it is about.
 */
export function toFormErrors(errors: Record<string, string>, body: Record<string, unknown>): Record<string, string> {
  const hasMarkers = Boolean((body.order_set as { add_on?: unknown } | undefined)?.add_on);
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    let field = key;
    if (key === 'order_set.lab_test_ids' || key.startsWith('order_set.lab_test_ids.')) field = 'lab_test_id';
    else if (key.startsWith('order_set.add_on.')) field = 'order_set.add_on.marker_ids';
    else if (key === 'order_set.lab_account_id') field = 'lab_account_id';
    else if (key === 'order_set') field = hasMarkers ? 'order_set.add_on.marker_ids' : 'lab_test_id';
    else if (key === 'icd_codes' || key.startsWith('icd_codes.')) field = 'icd_codes_text';
    else if (key === 'consents' || key.startsWith('consents.')) field = 'consent_types';
    else if (key === 'health_insurance') field = 'billing_type';
    else if (key.startsWith('aoe_answers')) field = aoeField(key, body) ?? 'lab_test_id';
    out[field] ??= message;
  }
  return out;
}

/** `aoe_answers.2.answer` → the input of that answer; a missing answer's error has no index (the lab test's field shows it). */
function aoeField(key: string, body: Record<string, unknown>): string | undefined {
  const index = /^aoe_answers\.(\d+)/.exec(key)?.[1];
  const answer = index === undefined ? undefined : (body.aoe_answers as { marker_id: number; question_id: number }[] | undefined)?.[Number(index)];
  return answer ? `aoe.m${answer.marker_id}_q${answer.question_id}` : undefined;
}

/**
 * The clinical parts of an order (wire-facts §4.1, §11.3): the ordering physician's NPI, ICD-10
 * diagnosis codes, health insurance and consents. Shared by the service (validation), the BFF
 * (parsing answers) and the order form (the same checks as you type).
 */
import { z } from 'zod';
import { hasNoNul, NO_NUL_MESSAGE } from './common';
import { UsState } from './labs';

/**
 * An NPI is 9 digits plus a Luhn check digit computed over "80840" + the 9 digits (the ISO card
 * issuer prefix the NPI standard assigns to US health); a typo in any one digit fails it.
 */
export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  const digits = `80840${npi}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
export const NPI_MESSAGE = 'must be a 10-digit NPI whose last digit is its check digit (Luhn with prefix 80840)';

/** ICD-10-CM: a letter, a digit, a letter or digit, then optionally a dot and up to 4 letters or digits. */
export const ICD10_CODE = /^[A-Za-z]\d[A-Za-z0-9](\.[A-Za-z0-9]{1,4})?$/;
export const ICD10_MESSAGE = 'must be an ICD-10 code such as E11.9 (letter, digit, letter or digit, then optionally a dot and up to 4 more)';
export const IcdCode = z.string().trim().regex(ICD10_CODE, ICD10_MESSAGE);

export const Physician = z.object({
  first_name: z.string().trim().min(1, 'must not be empty').max(100).refine(hasNoNul, NO_NUL_MESSAGE),
  last_name: z.string().trim().min(1, 'must not be empty').max(100).refine(hasNoNul, NO_NUL_MESSAGE),
  email: z.email().nullable().optional(),
  npi: z.string().refine(isValidNpi, NPI_MESSAGE),
  licensed_states: z.array(UsState).nullable().optional(),
  signature_image: z.string().max(2_000_000).nullable().optional(),
});

/** ResponsibleRelationship: who holds the insurance the patient is covered by. */
export const INSURANCE_RELATIONSHIPS = ['Self', 'Spouse', 'Other'] as const;

const line = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max).refine(hasNoNul, NO_NUL_MESSAGE);

/** HealthInsurancePersonDetails: the subscriber, when the patient is not (relationship not Self). */
export const InsuredPerson = z.object({
  first_name: line(100),
  last_name: line(100),
  address: z.object({
    first_line: line(),
    second_line: z.string().max(200).nullable().optional(),
    city: line(100),
    state: UsState,
    zip: line(10),
    country: z.string().trim().min(2).max(56).default('US'),
  }),
  phone_number: line(40),
  phone_type: z.string().max(20).nullable().optional(),
});

/**
 * HealthInsuranceCreateRequest (the SDK's fields, snake_case on the wire), plus `group_id`, which
 * the SDK's read type (ClientFacingInsurance) carries and insurance cards print.
 */
export const HealthInsurance = z.object({
  payor_code: line(80).describe('The payor (insurance company) code'),
  insurance_id: line(80).describe('Member id on the insurance card'),
  group_id: z.string().trim().max(80).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional().describe('Extension: group number on the card'),
  responsible_relationship: z.enum(INSURANCE_RELATIONSHIPS).default('Self'),
  responsible_details: InsuredPerson.nullable().optional().describe('The subscriber; required unless responsible_relationship is Self'),
  diagnosis_codes: z.array(IcdCode).max(12).nullable().optional(),
  subjective: z.string().max(2000).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional(),
  assessment_plan: z.string().max(2000).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional(),
  front_image: z.unknown().optional(),
  back_image: z.unknown().optional(),
  patient_signature_image: z.unknown().optional(),
}).superRefine((h, ctx) => {
  if (h.responsible_relationship !== 'Self' && !h.responsible_details) {
    ctx.addIssue({ code: 'custom', path: ['responsible_details'], message: `the subscriber's details are required when the relationship is ${h.responsible_relationship}` });
  }
});
export type HealthInsurance = z.infer<typeof HealthInsurance>;

/** The insurance as an order read shows it: what was given, without the images. */
export const OrderHealthInsurance = z.object({
  payor_code: z.string(),
  insurance_id: z.string(),
  group_id: z.string().nullable().optional(),
  responsible_relationship: z.string(),
  responsible_details: z.record(z.string(), z.unknown()).nullable().optional(),
  diagnosis_codes: z.array(z.string()).nullable().optional(),
});
export type OrderHealthInsurance = z.infer<typeof OrderHealthInsurance>;

export const CONSENT_TYPES = [
  'terms-of-use',
  'telehealth-informed-consent',
  'mobile-terms-and-conditions',
  'notice-of-privacy-practices',
  'privacy-policy',
  'hipaa-authorization',
] as const;

/** Consent: camelCase keys on the wire (wire-facts §4.1). The service records the time when none is given. */
export const Consent = z.object({
  consentType: z.enum(CONSENT_TYPES),
  version: z.string().trim().max(40).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional(),
  timeOfConsent: z.iso.datetime({ offset: true }).nullable().optional(),
});
/** A consent as the order records it: with its version (null when none was given) and time (null only on orders placed before times were recorded). */
export const RecordedConsent = z.object({ consentType: z.string(), version: z.string().nullable(), timeOfConsent: z.string().nullable() });
export type RecordedConsent = z.infer<typeof RecordedConsent>;

export const ValidateIcdCodesBody = z.object({ codes: z.array(z.string().max(20).refine(hasNoNul, NO_NUL_MESSAGE)).min(1).max(50) });
export type ValidateIcdCodesBody = z.infer<typeof ValidateIcdCodesBody>;
/** ValidateIcdCodesResponse: `errors` one sentence per unusable code, naming it first. */
export const ValidateIcdCodesResponse = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
  violations: z.array(z.object({ code: z.string(), conflicts_with: z.string(), type: z.string() })),
  warnings: z.array(z.object({ code: z.string(), overlaps_with: z.string(), type: z.string() })),
});
export type ValidateIcdCodesResponse = z.infer<typeof ValidateIcdCodesResponse>;

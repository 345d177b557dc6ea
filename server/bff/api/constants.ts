/**
 * The contract's plain values (header names, error codes) that the dashboard's first page needs.
 * They live apart from the schemas so that importing them does not bring zod and every schema into
 * the dashboard's first download; the modules they belong to re-export them.
 */

/** Sent by the dashboard's session watch: reads the session without counting as activity (the idle timeout still runs). */
export const SESSION_PROBE_HEADER = 'x-session-probe';

/** The header that carries `csrfToken` on every request that changes something. */
export const CSRF_HEADER = 'x-csrf-token';

/** One key per form submission: a retried or double-clicked submit is answered with the first order. */
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';

/** The BFF's error code when an order simply has no results yet (the dashboard shows an empty state, not an error). */
export const RESULTS_NOT_READY = 'results_not_ready';

/** Failures the dashboard tells apart by code. A newer BFF may add codes: unknown ones are shown as plain errors. */
export const ERROR_CODES = {
  /** Another patient of the team already has this client user id (`errors.client_user_id` says so). */
  duplicate_client_user_id: 'Another patient already has this client user id',
  /** The booking key expired: ask for availability again. */
  slot_expired: 'The booking key expired: ask for availability again',
  /** Every place of the slot was taken meanwhile: show fresh slots. */
  slot_taken: 'Every place of the slot was taken meanwhile: show fresh slots',
  /** The order already holds an active appointment: open it instead. */
  has_appointment: 'The order already holds an active appointment: open it instead',
  /** The provider did not confirm; nothing was reserved (or the old time was kept). */
  not_confirmed: 'The provider did not confirm; nothing was reserved (or the old time was kept)',
  /** The appointment cannot be moved in its state. */
  not_reschedulable: 'The appointment cannot be moved in its state',
  /** The report left the review queue (reviewed by someone else, or re-parsed). */
  not_reviewable: 'The report is no longer waiting for review',
  /** Sign-in needs the code of the member's authenticator app (the answer also carries `mfa_required: true`). */
  mfa_required: "Sign-in needs the code of the member's authenticator app",
  /** The member's role requires two-factor: set it up before anything else. */
  mfa_enrolment_required: "The member's role requires two-factor: set it up before anything else",
  /** Too many failed sign-ins: wait for `Retry-After` seconds. */
  sign_in_locked: 'Too many failed sign-ins: wait for the Retry-After seconds',
  /** The report names someone else than the patient it is filed under: approve again with `confirm_patient_mismatch: true` to file it anyway. */
  patient_mismatch: 'The report names someone else than the patient: confirm to file it under this patient anyway',
  /** The order has no results yet (the lab has not reported). */
  results_not_ready: 'The order has no results yet',
  /** The last active admin cannot be demoted or disabled. */
  last_admin: 'The last active admin cannot be demoted or disabled',
  /** Someone else holds the order's triage claim: claim again with `force: true` to take it over. */
  claimed_by_other: 'Someone else holds the claim: claim again with force to take it over',
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** How often the dashboard asks for `GET /api/overview` again (and the menu badges with it: one query serves both). */
export const OVERVIEW_POLL_MS = 30_000;

/** True when an overview queue's count could not be read (`OverviewQueueError` in overview.ts). */
export const isQueueError = (queue: object): queue is { error: string } => 'error' in queue;

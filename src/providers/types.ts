/**
 * The dashboard's data provider: react-admin's plus the BFF's calls that are not CRUD. Shapes come
 * from the BFF's contract (server/bff/api/).
 */
import type { DataProvider } from 'react-admin';
import type {
  AddressBody,
  AppointmentRecord,
  AvailabilityAnswer,
  BookBody,
  CancelBody,
  CancellationReason,
  RequestBody,
  RescheduleBody,
} from '../appointments/types';
import type { ParserJobRecord, ParserQueueStatus, ReviewBody } from '../parser-jobs/types';
import type { WebhookDeliveryRecord } from '../webhook-endpoints/types';
import type { OrderRecord } from '../orders/types';
import type { WalkInCalls } from './walkInCalls';
import type {
  AuditChainCheck,
  BulkResult,
  CriticalAcknowledgement,
  OrderNoteRecord,
  OrderTriageState,
  ReplaceKitResult,
  TriageOutcome,
  DateRange,
  IcdCodesVerdict,
  MfaEnrolment,
  MindfulnessMinutes,
  OrderResults,
  Overview,
  PatientBiomarkerHistory,
  PatientBiomarkers,
  SessionAnswer,
  StaffRecord,
  StaffUser,
  TeamSettingsRecord,
} from '../../server/bff/api';

export type { DateRange, MindfulnessMinutes, SessionAnswer, StaffUser } from '../../server/bff/api';
/** Roles arrive as plain strings: one from a newer BFF gets the least privilege. */
export type StaffRole = StaffUser['role'];

/** A lab report to upload: the multipart fields of `POST /api/parser-jobs`. */
export interface ParserJobUpload {
  file: File;
  userId: string;
  needsHumanReview: boolean;
}

/** What an upload reports while it runs (`create('parser-jobs', {data, meta})` takes these in `meta`). */
export interface UploadProgress {
  /** 0..1 of the bytes sent; null when the browser cannot tell the total. */
  onProgress?: (fraction: number | null) => void;
  /** Called once every byte is sent and the server is reading the answer. */
  onSent?: () => void;
  signal?: AbortSignal;
}

/**
 * What `create` reads from `meta`: the order form's idempotency key (sent as the BFF's
 * IDEMPOTENCY_HEADER), and for a lab report (`parser-jobs`) the upload's progress callbacks.
 */
export interface CreateMeta extends UploadProgress {
  idempotencyKey?: string;
}

/** react-admin's DataProvider plus the calls that do not fit the CRUD mould. */
export interface LabdeskDataProvider extends DataProvider, WalkInCalls {
  /** Cancels an order (pessimistic: answers the cancelled order); 422 when it is already final. The reason is kept as a staff note. */
  cancelOrder(orderId: string, reason?: string): Promise<OrderRecord>;
  /** The order's triage state (owner, resolution). */
  getOrderTriage(orderId: string): Promise<OrderTriageState>;
  /** Claims for the signed-in member; someone else's claim is a 409 `claimed_by_other` unless `force`. */
  claimOrder(orderId: string, force?: boolean): Promise<OrderTriageState>;
  unclaimOrder(orderId: string, force?: boolean): Promise<OrderTriageState>;
  resolveOrder(orderId: string, body: { outcome: TriageOutcome; note: string }): Promise<OrderTriageState>;
  /** A lost kit: the service places a new order (reship: same lab account; recreate: a fresh one). */
  replaceOrderKit(orderId: string, action: 'reship' | 'recreate', note: string): Promise<ReplaceKitResult>;
  getOrderNotes(orderId: string): Promise<OrderNoteRecord[]>;
  addOrderNote(orderId: string, body: string): Promise<OrderNoteRecord>;
  /** One result per id; each is done on its own (a failure undoes nothing). */
  bulkClaimOrders(ids: string[]): Promise<BulkResult>;
  bulkResolveOrders(ids: string[], body: { outcome: TriageOutcome; note: string }): Promise<BulkResult>;
  /** The service's verdict on ICD-10 codes (unknown or category codes, Excludes1 violations, Excludes2 warnings). */
  validateIcdCodes(codes: string[]): Promise<IcdCodesVerdict>;
  getMindfulnessMinutes(userId: string, range: DateRange): Promise<MindfulnessMinutes>;
  /** The order's current appointment; null when it has none (the BFF's 404 "No appointment for this order"). */
  getOrderAppointment(orderId: string): Promise<AppointmentRecord | null>;
  /** 14 days of slots for the order's patient address (`address` omitted) or for the address given. */
  getAppointmentAvailability(orderId: string, params: { address?: AddressBody; start_date?: string }): Promise<AvailabilityAnswer>;
  getCancellationReasons(): Promise<CancellationReason[]>;
  bookAppointment(orderId: string, body: BookBody): Promise<AppointmentRecord>;
  requestAppointment(orderId: string, body: RequestBody): Promise<AppointmentRecord>;
  rescheduleAppointment(orderId: string, body: RescheduleBody): Promise<AppointmentRecord>;
  cancelAppointment(orderId: string, body: CancelBody): Promise<AppointmentRecord>;
  /** The team's parse queue: reports waiting to be read and the oldest wait. */
  getParserQueue(): Promise<ParserQueueStatus>;
  /** Approves (with the corrected results) or rejects a parser job waiting for review; answers the job. */
  reviewParserJob(jobId: string, body: ReviewBody): Promise<ParserJobRecord>;
  /** A webhook endpoint's signing secret (audited as a reveal). */
  getWebhookEndpointSecret(endpointId: string): Promise<{ secret: string }>;
  /** Sends a delivery again (202); 409 while it is pending or the endpoint is disabled. */
  replayWebhookDelivery(endpointId: string, deliveryId: string): Promise<WebhookDeliveryRecord>;
  /** Ends a member's two-factor enrolment (admins; a lost phone); answers the member. */
  resetStaffMfa(staffId: string): Promise<StaffRecord>;
  /** Whether the audit trail's hash chain is intact, and where it first breaks. */
  verifyAuditTrail(): Promise<AuditChainCheck>;
  /** The signed-in member's new two-factor secret, to scan; it counts once confirmed. */
  startMfaEnrolment(): Promise<MfaEnrolment>;
  /** Confirms two-factor with a code from the new secret; answers (and remembers) the session. */
  confirmMfaEnrolment(code: string): Promise<SessionAnswer>;
  /** The order's results; null while the lab has not reported (the BFF's `results_not_ready`). */
  getOrderResults(orderId: string): Promise<OrderResults | null>;
  /** Records that the signed-in member has acted on the order's critical value (the first acknowledgement stands). */
  acknowledgeCriticalResult(orderId: string, note?: string): Promise<CriticalAcknowledgement>;
  /** The latest value and trend of each of the patient's analytes. */
  getPatientBiomarkers(userId: string): Promise<PatientBiomarkers>;
  /** Every value of one analyte (by LOINC code) for the patient, oldest first. */
  getPatientBiomarkerHistory(userId: string, loinc: string): Promise<PatientBiomarkerHistory>;
  getTeamSettings(): Promise<TeamSettingsRecord>;
  updateTeamSettings(patch: Partial<TeamSettingsRecord>): Promise<TeamSettingsRecord>;
  /** What needs the signed-in member: counts per queue their role may see, "today" in `timeZone`. */
  getOverview(timeZone: string): Promise<Overview>;
}

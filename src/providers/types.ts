/**
 * Shapes the BFF answers with that are not part of the service's contract (`server/contract`):
 * the BFF's own sign-in payloads and its chart-ready aggregates.
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

/** Roles the BFF knows today; unknown ones arrive as plain strings and get the least privilege. */
export type StaffRole = 'admin' | 'coordinator' | 'lab_ops' | 'reviewer' | (string & {});

export interface StaffUser {
  id: string;
  email: string;
  name: string | null;
  role: StaffRole;
}

/** `POST /api/auth/login` and `GET /api/auth/me` both answer this. */
export interface SessionAnswer {
  user: StaffUser;
  csrfToken: string;
}

export interface DateRange {
  /** YYYY-MM-DD, inclusive, in the patient's time zone */
  start_date: string;
  /** YYYY-MM-DD, inclusive, in the patient's time zone */
  end_date: string;
}

/** `GET /api/users/:id/mindfulness-minutes`: one zero-filled entry per calendar day. */
export interface MindfulnessMinutes {
  user_id: string;
  start_date: string;
  end_date: string;
  /** IANA zone the days are cut in; null if the BFF could not tell. */
  time_zone: string | null;
  providers: { slug: string; name: string }[];
  days: { date: string; total: number; by_provider: Record<string, number> }[];
  sessions: number;
  upstream_pages: number;
}

/** react-admin's DataProvider plus the calls that do not fit the CRUD mould. */
export interface LabdeskDataProvider extends DataProvider {
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
}

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
import type { UploadInput, UploadOptions } from '../parser-jobs/upload/uploadParserJob';
import type { DateRange, MindfulnessMinutes, StaffUser } from '../../server/bff/api';

export type { DateRange, MindfulnessMinutes, SessionAnswer, StaffUser } from '../../server/bff/api';
/** Roles arrive as plain strings: one from a newer BFF gets the least privilege. */
export type StaffRole = StaffUser['role'];

/** react-admin's DataProvider plus the calls that do not fit the CRUD mould. */
export interface LabdeskDataProvider extends DataProvider {
  /** Cancels an order (pessimistic: answers the cancelled order); 422 when it is already final. */
  cancelOrder(orderId: string): Promise<OrderRecord>;
  /** Uploads a lab report (multipart) with upload progress; answers the new parsing job. */
  uploadLabReport(input: UploadInput, options?: UploadOptions): Promise<ParserJobRecord>;
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

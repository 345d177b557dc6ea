/**
 * react-admin's data provider for the BFF: ra-data-simple-rest, plus what it cannot read.
 *
 * ra-data-simple-rest parses `Content-Range: users 0-24/*` as a total of NaN, which breaks the
 * pagination of every cursor-paginated resource. So getList is ours (same URL conventions), and
 * turns `/*` + `X-Has-Next-Page` into react-admin's partial pagination (`pageInfo`).
 */
import simpleRestProvider from 'ra-data-simple-rest';
import { HttpError, type CreateParams, type CreateResult, type GetListParams, type GetListResult } from 'react-admin';
import { IDEMPOTENCY_HEADER, RESULTS_NOT_READY, SESSION_PROBE_HEADER } from '../../server/bff/api/constants';
import type { OrderRecord } from '../orders/types';
import type {
  AuditChainCheck,
  CriticalAcknowledgement,
  IcdCodesVerdict,
  MfaEnrolment,
  OrderResults,
  Overview,
  PatientBiomarkerHistory,
  PatientBiomarkers,
  SessionAnswer,
  StaffRecord,
  TeamSettingsRecord,
} from '../../server/bff/api';
import { errorCodeOf } from './errorCode';
import { httpClient, type HttpResponse } from './httpClient';
import { rememberSession } from './session';
import { triageCalls } from './triageCalls';
import { uploadParserJob } from './upload';
import { walkInCalls } from './walkInCalls';
import type { AppointmentRecord, AvailabilityAnswer, CancellationReason } from '../appointments/types';
import type { ParserJobRecord, ParserQueueStatus } from '../parser-jobs/types';
import type { WebhookDeliveryRecord } from '../webhook-endpoints/types';
import type { CreateMeta, DateRange, LabdeskDataProvider, MindfulnessMinutes } from './types';

export const API_URL = '/api';

/** Parses the `Content-Range` of a list answer into a total, or `null` when the BFF has none (`/*`). */
export function parseContentRange(header: string): number | null {
  const total = header.split('/').pop()?.trim() ?? '';
  if (total === '*') return null;
  const parsed = Number.parseInt(total, 10);
  if (Number.isNaN(parsed)) throw new Error(`Unreadable Content-Range header: "${header}"`);
  return parsed;
}

function listRequest(resource: string, params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>) {
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
  const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
  const rangeStart = (page - 1) * perPage;
  const rangeEnd = page * perPage - 1;
  const query = new URLSearchParams({
    sort: JSON.stringify([field, order]),
    range: JSON.stringify([rangeStart, rangeEnd]),
    filter: JSON.stringify(params.filter ?? {}),
  });
  // Some browsers only expose Content-Range when the request carried a Range header.
  return { url: `${API_URL}/${resource}?${query}`, range: `${resource}=${rangeStart}-${rangeEnd}`, page };
}

// Lists asked for before React rendered (prefetchList), by URL, until their list asks for them.
const prefetched = new Map<string, Promise<HttpResponse>>();
const PREFETCH_KEPT_MS = 30_000;

/**
 * Starts the request of a list the first page is about to show, before its view has even been
 * downloaded (main.tsx, firstPage.ts). The list's own getList with the same parameters takes the
 * answer instead of asking again; a guess that was wrong, or that failed, is simply not used.
 */
export function prefetchList(resource: string, params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>): void {
  const { url, range } = listRequest(resource, params);
  if (prefetched.has(url)) return;
  const answer = httpClient(url, { headers: { Range: range } });
  prefetched.set(url, answer);
  // Not signed in, not allowed, offline: the list asks again itself and handles its own answer.
  answer.catch(() => prefetched.delete(url));
  setTimeout(() => prefetched.delete(url), PREFETCH_KEPT_MS);
}

export async function getList(resource: string, params: GetListParams): Promise<GetListResult> {
  const { url, range, page } = listRequest(resource, params);
  const ask = () => httpClient(url, { headers: { Range: range }, signal: params.signal });
  const early = prefetched.get(url);
  prefetched.delete(url);
  const { headers, json } = await (early ? early.catch(ask) : ask());
  const contentRange = headers.get('Content-Range');
  if (!contentRange) {
    throw new Error(`The BFF answered /${resource} without a Content-Range header, so the list cannot be paginated.`);
  }
  const data = json as GetListResult['data'];
  const total = parseContentRange(contentRange);
  if (total !== null) return { data, total };
  // No total, not even on the last page: one that appeared there alone would flip react-admin from
  // partial to full pagination mid-list. ListPagination counts what a partial page shows.
  return {
    data,
    pageInfo: { hasNextPage: headers.get('X-Has-Next-Page') === 'true', hasPreviousPage: page > 1 },
  };
}

async function getMindfulnessMinutes(userId: string, range: DateRange): Promise<MindfulnessMinutes> {
  const query = new URLSearchParams({ start_date: range.start_date, end_date: range.end_date });
  const { json } = await httpClient(`${API_URL}/users/${encodeURIComponent(userId)}/mindfulness-minutes?${query}`);
  return json as MindfulnessMinutes;
}

// An order's appointment actions (docs/bff-api.md). They are POSTs, so httpClient adds the CSRF
// header; errors arrive as HttpError with the BFF's `code` (slot_expired, slot_taken, ...) in `body`.
const orderAppointmentUrl = (orderId: string, action: string) => `${API_URL}/orders/${encodeURIComponent(orderId)}/appointment/${action}`;

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const { json } = await httpClient(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: new Headers({ 'Content-Type': 'application/json' }),
  });
  return json as T;
}

const appointmentCalls: Pick<
  LabdeskDataProvider,
  | 'getOrderAppointment'
  | 'getAppointmentAvailability'
  | 'getCancellationReasons'
  | 'bookAppointment'
  | 'requestAppointment'
  | 'rescheduleAppointment'
  | 'cancelAppointment'
> = {
  async getOrderAppointment(orderId) {
    try {
      const { json } = await httpClient(`${API_URL}/appointments/${encodeURIComponent(orderId)}`);
      return json as AppointmentRecord;
    } catch (error) {
      // Having no appointment yet is the normal state of a new at-home order, not an error.
      if (error instanceof HttpError && error.status === 404) return null;
      throw error;
    }
  },
  getAppointmentAvailability(orderId, { address, start_date }) {
    const query = start_date ? `?${new URLSearchParams({ start_date })}` : '';
    // `{}` asks for the order's own patient address.
    return postJson<AvailabilityAnswer>(`${orderAppointmentUrl(orderId, 'availability')}${query}`, address ?? {});
  },
  async getCancellationReasons() {
    const { json } = await httpClient(`${API_URL}/appointments/cancellation-reasons`);
    return json as CancellationReason[];
  },
  bookAppointment: (orderId, body) => postJson<AppointmentRecord>(orderAppointmentUrl(orderId, 'book'), body),
  requestAppointment: (orderId, body) => postJson<AppointmentRecord>(orderAppointmentUrl(orderId, 'request'), body),
  rescheduleAppointment: (orderId, body) => postJson<AppointmentRecord>(orderAppointmentUrl(orderId, 'reschedule'), body),
  cancelAppointment: (orderId, body) => postJson<AppointmentRecord>(orderAppointmentUrl(orderId, 'cancel'), body),
};

// Lab-report review and webhook endpoints (docs/bff-api.md): POSTs and a secret read that do not
// fit the CRUD mould. Errors keep the BFF's `code` (e.g. not_reviewable) in `body`.
const enc = encodeURIComponent;

const parserAndWebhookCalls: Pick<LabdeskDataProvider, 'getParserQueue' | 'reviewParserJob' | 'getWebhookEndpointSecret' | 'replayWebhookDelivery'> = {
  async getParserQueue() {
    const { json } = await httpClient(`${API_URL}/parser-jobs/queue`);
    return json as ParserQueueStatus;
  },
  reviewParserJob: (jobId, body) => postJson<ParserJobRecord>(`${API_URL}/parser-jobs/${enc(jobId)}/review`, body),
  async getWebhookEndpointSecret(endpointId) {
    const { json } = await httpClient(`${API_URL}/webhook-endpoints/${enc(endpointId)}/secret`);
    return json as { secret: string };
  },
  replayWebhookDelivery: (endpointId, deliveryId) =>
    postJson<WebhookDeliveryRecord>(`${API_URL}/webhook-endpoints/${enc(endpointId)}/deliveries/${enc(deliveryId)}/replay`, {}),
};

/**
 * react-admin's create, plus what the BFF reads besides the record: `meta.idempotencyKey`, sent as
 * the BFF's idempotency header, so a double-clicked or retried submit is answered with the first
 * record instead of making another; and for `parser-jobs` a multipart upload (XHR, for its
 * progress) that reports through `meta.onProgress` and `meta.onSent`.
 */
async function create(resource: string, params: CreateParams): Promise<CreateResult> {
  const meta = (params.meta ?? {}) as CreateMeta;
  if (resource === 'parser-jobs') {
    const { file, user_id, needs_human_review } = params.data as { file?: unknown; user_id?: unknown; needs_human_review?: unknown };
    if (!(file instanceof File) || typeof user_id !== 'string') throw new Error('A lab report needs a file and the patient user id');
    const job = await uploadParserJob(`${API_URL}/parser-jobs`, { file, userId: user_id, needsHumanReview: needs_human_review === true }, meta);
    return { data: job };
  }
  const key = meta.idempotencyKey;
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (typeof key === 'string') headers.set(IDEMPOTENCY_HEADER, key);
  const { json } = await httpClient(`${API_URL}/${resource}`, { method: 'POST', body: JSON.stringify(params.data), headers });
  return { data: json as CreateResult['data'] };
}

const orderCalls: Pick<LabdeskDataProvider, 'cancelOrder' | 'validateIcdCodes'> = {
  cancelOrder: (orderId, reason) => postJson<OrderRecord>(`${API_URL}/orders/${enc(orderId)}/cancel`, reason ? { reason } : {}),
  validateIcdCodes: (codes) => postJson<IcdCodesVerdict>(`${API_URL}/icd-codes/validate`, { codes }),
};

/** Staff, two-factor and the audit trail's chain: calls of the access pages. */
const accessCalls: Pick<LabdeskDataProvider, 'resetStaffMfa' | 'verifyAuditTrail' | 'startMfaEnrolment' | 'confirmMfaEnrolment'> = {
  async resetStaffMfa(staffId) {
    const { json } = await httpClient(`${API_URL}/staff/${enc(staffId)}/mfa`, { method: 'DELETE' });
    return json as StaffRecord;
  },
  async verifyAuditTrail() {
    const { json } = await httpClient(`${API_URL}/audit-events/verify`);
    return json as AuditChainCheck;
  },
  startMfaEnrolment: () => postJson<MfaEnrolment>(`${API_URL}/auth/mfa`, {}),
  async confirmMfaEnrolment(code) {
    const session = await postJson<SessionAnswer>(`${API_URL}/auth/mfa/confirm`, { code });
    rememberSession(session.user, session.csrfToken);
    return session;
  },
};

/** Results, biomarker histories and the team's result webhooks setting. */
const resultCalls: Pick<
  LabdeskDataProvider,
  'getOrderResults' | 'acknowledgeCriticalResult' | 'getPatientBiomarkers' | 'getPatientBiomarkerHistory' | 'getTeamSettings' | 'updateTeamSettings'
> = {
  async getOrderResults(orderId) {
    try {
      const { json } = await httpClient(`${API_URL}/orders/${enc(orderId)}/results`);
      return json as OrderResults;
    } catch (error) {
      // No results yet is the normal state of an order in progress, not an error.
      if (error instanceof HttpError && errorCodeOf(error) === RESULTS_NOT_READY) return null;
      throw error;
    }
  },
  acknowledgeCriticalResult: (orderId, note) =>
    postJson<CriticalAcknowledgement>(`${API_URL}/orders/${enc(orderId)}/critical-acknowledgement`, note ? { note } : {}),
  async getPatientBiomarkers(userId) {
    const { json } = await httpClient(`${API_URL}/users/${enc(userId)}/biomarkers`);
    return json as PatientBiomarkers;
  },
  async getPatientBiomarkerHistory(userId, loinc) {
    const { json } = await httpClient(`${API_URL}/users/${enc(userId)}/biomarkers/${enc(loinc)}`);
    return json as PatientBiomarkerHistory;
  },
  async getTeamSettings() {
    const { json } = await httpClient(`${API_URL}/team-settings`);
    return json as TeamSettingsRecord;
  },
  async updateTeamSettings(patch) {
    const { json } = await httpClient(`${API_URL}/team-settings`, {
      method: 'PUT',
      body: JSON.stringify(patch),
      headers: new Headers({ 'Content-Type': 'application/json' }),
    });
    return json as TeamSettingsRecord;
  },
};

/**
 * The overview, polled every 30 s: sent as a session probe, so an open dashboard left alone still
 * signs its member out after the idle timeout (its refreshes are not someone at work).
 */
async function getOverview(timeZone: string): Promise<Overview> {
  const { json } = await httpClient(`${API_URL}/overview?time_zone=${enc(timeZone)}`, { headers: new Headers({ [SESSION_PROBE_HEADER]: '1' }) });
  return json as Overview;
}

const simpleRest = simpleRestProvider(API_URL, httpClient);

export const dataProvider: LabdeskDataProvider = {
  ...simpleRest,
  getList,
  create,
  ...orderCalls,
  ...triageCalls,
  getMindfulnessMinutes,
  ...appointmentCalls,
  ...parserAndWebhookCalls,
  ...accessCalls,
  ...resultCalls,
  ...walkInCalls(API_URL),
  getOverview,
};

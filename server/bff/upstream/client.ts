import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type {
  AcknowledgeCriticalBody,
  BookBody,
  CancelBody,
  CreateOrderBody,
  CreateUserBody,
  CreateWebhookEndpointBody,
  DeliveriesQuery,
  GroupedTimeseriesQuery,
  LabAccountsQuery,
  LabTestsQuery,
  MarkersQuery,
  OrdersQuery,
  ParsingJobReviewBody,
  ParsingJobsQuery,
  PatchUserBody,
  PatchWebhookEndpointBody,
  RequestBody,
  RescheduleBody,
  TeamSettingsPatch,
  USAddress,
  ValidateIcdCodesBody} from '../../contract';
import {
  Appointment,
  AvailabilityResponse,
  BiomarkerHistory,
  BiomarkerSummaries,
  CriticalAcknowledgement,
  LabResultsRaw,
  TeamSettings,
  CancellationReasons,
  CreatedWebhookEndpoint,
  CreateUserResponse,
  GroupedTimeseriesResponse,
  Lab,
  LabAccountsResponse,
  LabTest,
  MarkersResponse,
  Order,
  OrdersResponse,
  PaginatedUsers,
  ParserQueue,
  ParsingJob,
  ParsingJobsResponse,
  PostOrderResponse,
  PscAvailability,
  PscInfo,
  User,
  ValidateIcdCodesResponse,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointSecret,
} from '../../contract';
import { UpstreamError, upstreamError } from './errors';
import { type Answer, AnswerTooLarge, NoAnswer, Transport } from './transport';

export interface ServiceClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /**
   * For calls that wait for a phlebotomy provider (a synchronous book or a reschedule waits up to
   * 30 s upstream): a longer limit than `timeoutMs`, so the BFF does not give up on a booking the
   * service is still confirming. Default 45 s (or `timeoutMs` when that is longer).
   */
  slowTimeoutMs?: number;
  /**
   * For lab-report uploads, whose body streams from the browser through the BFF while the call
   * runs: the whole upload must fit in it. Default 5 minutes (10 MB at about 300 kbit/s).
   */
  uploadTimeoutMs?: number;
  /** Connections to the service at most, kept alive and reused; further calls wait for one. Default 64. */
  maxSockets?: number;
  /**
   * The largest JSON answer read (a 500-user page is ~0.6 MB, an order page of 100 ~4 MB): a
   * deployment answering more is a 502, never an unbounded buffer. Default 32 MiB.
   */
  maxAnswerBytes?: number;
}

/**
 * A query of the service's contract as this client sends it: every parameter the contract reads,
 * all optional, enumerated values widened to strings (a newer deployment may take values this
 * contract does not list; the service is the judge).
 */
type Widen<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Widen<U>[]
    : T extends Record<string, unknown>
      ? { [K in keyof T]: Widen<T[K]> }
      : T;
/** A body of the service's contract as this client sends it (checked by the service, enumerations widened). */
type WireBody<S extends z.ZodType> = Widen<z.input<S>>;
type WireQuery<S extends z.ZodType> = { [K in keyof z.output<S>]?: Widen<z.output<S>[K]> | null };

export type ParsingJobsListQuery = WireQuery<typeof ParsingJobsQuery>;
export type DeliveriesListQuery = WireQuery<typeof DeliveriesQuery>;
/** A multipart/form-data body streamed on to the service as it arrives (never buffered whole). */
export interface StreamedForm {
  /** The bytes as the browser sent them (boundary and all). */
  body: AsyncIterable<Uint8Array>;
  /** The browser's Content-Type, with its boundary. */
  contentType: string;
}

export type MarkersListQuery = WireQuery<typeof MarkersQuery>;
export type LabTestsListQuery = WireQuery<typeof LabTestsQuery>;
export type LabAccountsListQuery = WireQuery<typeof LabAccountsQuery>;
export type OrdersListQuery = WireQuery<typeof OrdersQuery>;
export type MindfulnessQuery = WireQuery<typeof GroupedTimeseriesQuery>;

/** A binary answer passed through as a stream (e.g. a requisition PDF). */
export interface BinaryAnswer {
  body: Readable;
  contentType: string;
  contentLength: number | null;
}

type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** Query string with repeated keys for arrays; undefined, null and '' are left out. */
function queryString(params: Record<string, QueryValue> = {}): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) q.append(key, String(v));
    else q.set(key, String(value));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * A path with its values encoded, each one a single segment: a value that is empty, `.` or `..`
 * could climb to another endpoint (`/v2/user/..` is `/v2/`), so it is refused without a call.
 */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, s, i) => {
    if (i === 0) return s;
    const value = values[i - 1]!;
    if (value === '' || value === '.' || value === '..') throw new UpstreamError(404, 'not a valid id', 'path');
    return out + encodeURIComponent(value) + s;
  }, '');
}

/** How long a capability probe's answer is trusted: a redeployed service may gain an extension. */
const CAPABILITY_TTL_MS = 10 * 60_000;
/** How node:http reports a kept-alive connection the other side closed (not a refused or unknown host). */
const CLOSED_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);
const DEFAULT_MAX_SOCKETS = 64;
const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;
const appointmentPath = (orderId: string) => path`/v3/order/${orderId}/phlebotomy/appointment`;

/** One call to the service. */
interface Call<S extends z.ZodType> {
  /** Names the call in errors and logs. */
  operation: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  /** A JSON body; or `raw`, a stream sent as is with its own content type. */
  json?: unknown;
  raw?: StreamedForm;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** The answer's shape, from the contract. */
  response: S;
}

/**
 * The typed client of the service. It speaks only HTTP, so it works against any deployment, and
 * parses every answer with the shared contract: a deployment that answers in another shape is
 * reported as such (502), not passed on half-understood.
 */
export class ServiceClient {
  private readonly baseUrl: string;
  private readonly transport: Transport;
  constructor(private readonly opts: ServiceClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.transport = new Transport(this.baseUrl, { maxSockets: opts.maxSockets ?? DEFAULT_MAX_SOCKETS });
  }

  /** Closes the kept-alive connections to the service (the BFF is shutting down). */
  close(): void {
    this.transport.close();
  }

  /**
   * The SDK (so the production service) lists users at `/v2/user`, the interface at `/v2/user/`;
   * a deployment may serve only one. Try the SDK's, fall back once on 404/405, remember what worked.
   */
  private usersPath: string | null = null;
  private criticalFilterProbe: { at: number; known: boolean } | null = null;

  async listUsers(offset: number, limit: number) {
    const list = (at: string) => this.call({ operation: 'list users', path: at, query: { offset, limit }, response: PaginatedUsers });
    if (this.usersPath) return list(this.usersPath);
    let page: PaginatedUsers;
    try {
      page = await list('/v2/user');
      this.usersPath = '/v2/user';
    } catch (err) {
      if (!(err instanceof UpstreamError) || (err.status !== 404 && err.status !== 405)) throw err;
      page = await list('/v2/user/');
      this.usersPath = '/v2/user/';
    }
    return page;
  }

  async getUser(userId: string) {
    return this.call({ operation: 'get user', path: path`/v2/user/${userId}`, response: User });
  }

  async resolveUser(clientUserId: string) {
    return this.call({ operation: 'resolve user', path: path`/v2/user/resolve/${clientUserId}`, response: User });
  }

  /** The service answers a client_user_id the team already uses with 400 and the existing user_id. */
  async createUser(body: WireBody<typeof CreateUserBody>) {
    return this.call({ operation: 'create user', method: 'POST', path: '/v2/user', json: body, response: CreateUserResponse });
  }

  /** Fields left out stay as they are; null clears. The service answers 204. */
  async updateUser(userId: string, body: WireBody<typeof PatchUserBody>): Promise<void> {
    await this.call({ operation: 'update user', method: 'PATCH', path: path`/v2/user/${userId}`, json: body, response: z.unknown() });
  }

  async mindfulnessMinutesGrouped(userId: string, q: MindfulnessQuery) {
    return this.call({
      operation: 'mindfulness minutes',
      path: path`/v2/timeseries/${userId}/mindfulness_minutes/grouped`,
      query: q,
      response: GroupedTimeseriesResponse,
    });
  }

  // --- Lab catalogue -------------------------------------------------------------------------

  /** The team's lab accounts, all in one list (the service does not paginate them). */
  async listLabAccounts(q: LabAccountsListQuery = {}) {
    return this.call({ operation: 'list lab accounts', path: '/v3/lab_test/lab_account', query: q, response: LabAccountsResponse });
  }

  async listMarkers(q: MarkersListQuery) {
    return this.call({ operation: 'list markers', path: '/v3/lab_tests/markers', query: q, response: MarkersResponse });
  }

  async listLabs() {
    return this.call({ operation: 'list labs', path: '/v3/lab_tests/labs', response: z.array(Lab) });
  }

  async listLabTests(q: LabTestsListQuery = {}) {
    return this.call({ operation: 'list lab tests', path: '/v3/lab_tests', query: q, response: z.array(LabTest) });
  }

  async getLabTest(labTestId: string) {
    return this.call({ operation: 'get lab test', path: path`/v3/lab_tests/${labTestId}`, response: LabTest });
  }

  // --- Orders ----------------------------------------------------------------------------------

  /**
   * Places an order. `idempotencyKey` goes out as `X-Idempotency-Key`: the service answers a
   * repeat of the same key and body with the first answer, so a retried submit makes one order.
   */
  async createOrder(body: WireBody<typeof CreateOrderBody>, idempotencyKey?: string) {
    return this.call({
      operation: 'create order',
      method: 'POST',
      path: '/v3/order/create',
      json: body,
      headers: idempotencyKey ? { 'x-idempotency-key': idempotencyKey } : undefined,
      response: PostOrderResponse,
    });
  }

  /** The service's verdict on ICD-10 codes: unknown or category codes, Excludes1 violations, Excludes2 warnings. */
  async validateIcdCodes(body: WireBody<typeof ValidateIcdCodesBody>) {
    return this.call({ operation: 'validate ICD codes', method: 'POST', path: '/v3/insurance/validate_icd_codes', json: body, response: ValidateIcdCodesResponse });
  }

  async getOrder(orderId: string) {
    return this.call({ operation: 'get order', path: path`/v3/order/${orderId}`, response: Order });
  }

  async listOrders(q: OrdersListQuery) {
    return this.call({ operation: 'list orders', path: '/v3/orders', query: q, response: OrdersResponse });
  }

  async cancelOrder(orderId: string) {
    return this.call({ operation: 'cancel order', method: 'POST', path: path`/v3/order/${orderId}/cancel`, response: PostOrderResponse });
  }

  /** The requisition PDF, streamed through unparsed. */
  async orderRequisitionPdf(orderId: string): Promise<BinaryAnswer> {
    return this.binary('requisition pdf', path`/v3/order/${orderId}/requisition/pdf`, 'application/pdf, application/json');
  }

  // --- Results ------------------------------------------------------------------------------------

  async getOrderResults(orderId: string) {
    return this.call({ operation: 'get results', path: path`/v3/order/${orderId}/result`, response: LabResultsRaw });
  }

  /** The result report PDF, streamed through unparsed. */
  async orderResultsPdf(orderId: string): Promise<BinaryAnswer> {
    return this.binary('result pdf', path`/v3/order/${orderId}/result/pdf`, 'application/pdf, application/json');
  }

  /** Extension: null while nobody has acknowledged; an UpstreamError 404/405 where the service has no such endpoint. */
  async getCriticalAcknowledgement(orderId: string) {
    return this.call({ operation: 'get critical acknowledgement', path: path`/v3/order/${orderId}/result/critical/acknowledgement`, response: CriticalAcknowledgement.nullable() });
  }

  /** Extension: `created` is the service's word (201) that this acknowledgement is the first; a 200 answers the one that stands. */
  async acknowledgeCritical(orderId: string, body: WireBody<typeof AcknowledgeCriticalBody>) {
    const { status, data } = await this.callWithStatus({
      operation: 'acknowledge critical result',
      method: 'POST',
      path: path`/v3/order/${orderId}/result/critical/acknowledgement`,
      json: body,
      response: CriticalAcknowledgement,
    });
    return { created: status === 201, acknowledgement: data };
  }

  /**
   * Extension probe: does this service filter orders by unacknowledged critical result? One that
   * knows the filter refuses a value that is not a boolean; one that does not ignores it (and would
   * answer every order as if it were critical). Asked at most once every ten minutes.
   */
  async knowsCriticalFilter(): Promise<boolean> {
    const now = Date.now();
    if (this.criticalFilterProbe && now - this.criticalFilterProbe.at < CAPABILITY_TTL_MS) return this.criticalFilterProbe.known;
    const res = await this.send({ operation: 'probe critical filter', path: '/v3/orders', query: { critical_acknowledged: 'not-a-boolean', size: 1 } }, 'application/json');
    if (res.status !== 400 && res.status !== 422 && !res.ok) throw await upstreamError(res, 'probe critical filter');
    await this.readText(res, 'probe critical filter'); // read to the end (small), so the connection goes back to the pool
    const known = !res.ok;
    this.criticalFilterProbe = { at: now, known };
    return known;
  }

  async userBiomarkers(userId: string) {
    return this.call({ operation: 'get biomarkers', path: path`/v2/user/${userId}/biomarkers`, response: BiomarkerSummaries });
  }

  async userBiomarkerHistory(userId: string, loinc: string) {
    return this.call({ operation: 'get biomarker history', path: path`/v2/user/${userId}/biomarkers/${loinc}`, response: BiomarkerHistory });
  }

  async getTeamSettings() {
    return this.call({ operation: 'get team settings', path: '/v2/team/settings', response: TeamSettings });
  }

  async updateTeamSettings(body: WireBody<typeof TeamSettingsPatch>) {
    return this.call({ operation: 'update team settings', method: 'PATCH', path: '/v2/team/settings', json: body, response: TeamSettings });
  }

  // --- At-home phlebotomy appointments ---------------------------------------------------------

  /** The order's latest appointment (any status); 404 when the order has none (or is unknown). */
  async getOrderAppointment(orderId: string) {
    return this.call({ operation: 'get appointment', path: appointmentPath(orderId), response: Appointment });
  }

  /** Slots of 14 days at an address (a bare USAddress body); `startDate` is YYYY-MM-DD. */
  async appointmentAvailability(address: WireBody<typeof USAddress>, startDate?: string) {
    return this.call({
      operation: 'appointment availability',
      method: 'POST',
      path: '/v3/order/phlebotomy/appointment/availability',
      query: { start_date: startDate },
      json: address,
      response: AvailabilityResponse,
    });
  }

  /** Passed through as given: the service validates the body (ranges, notes) and answers 422 by field. */
  async bookAppointment(orderId: string, body: WireBody<typeof BookBody>) {
    return this.call({ operation: 'book appointment', method: 'POST', path: `${appointmentPath(orderId)}/book`, json: body, timeoutMs: this.slowTimeout, response: Appointment });
  }

  async requestAppointment(orderId: string, body: WireBody<typeof RequestBody>) {
    return this.call({ operation: 'request appointment', method: 'POST', path: `${appointmentPath(orderId)}/request`, json: body, response: Appointment });
  }

  async rescheduleAppointment(orderId: string, body: WireBody<typeof RescheduleBody>) {
    return this.call({
      operation: 'reschedule appointment',
      method: 'PATCH',
      path: `${appointmentPath(orderId)}/reschedule`,
      json: body,
      timeoutMs: this.slowTimeout,
      response: Appointment,
    });
  }

  async cancelAppointment(orderId: string, body: WireBody<typeof CancelBody>) {
    return this.call({ operation: 'cancel appointment', method: 'PATCH', path: `${appointmentPath(orderId)}/cancel`, json: body, response: Appointment });
  }

  async appointmentCancellationReasons() {
    return this.call({ operation: 'appointment cancellation reasons', path: '/v3/order/phlebotomy/appointment/cancellation-reasons', response: CancellationReasons });
  }

  // --- Walk-in visits at patient service centers, on-site draws --------------------------------

  /** The order's lab's centers near its patient, nearest first (radius in miles: 10, 20, 25, 50, 100). */
  async orderPscInfo(orderId: string, radius?: string) {
    return this.call({ operation: 'order psc info', path: path`/v3/order/${orderId}/psc/info`, query: { radius }, response: PscInfo });
  }

  /** Walk-in slots (7 days) at the given centers of a lab. */
  async pscAvailability(lab: string, siteCodes: string[], startDate?: string) {
    return this.call({
      operation: 'psc availability',
      method: 'POST',
      path: '/v3/order/psc/appointment/availability',
      query: { lab, site_codes: siteCodes, start_date: startDate },
      response: PscAvailability,
    });
  }

  async getPscAppointment(orderId: string) {
    return this.call({ operation: 'get psc appointment', path: path`/v3/order/${orderId}/psc/appointment`, response: Appointment });
  }

  async bookPscAppointment(orderId: string, bookingKey: string) {
    return this.call({ operation: 'book psc appointment', method: 'POST', path: path`/v3/order/${orderId}/psc/appointment/book`, json: { booking_key: bookingKey }, response: Appointment });
  }

  async reschedulePscAppointment(orderId: string, bookingKey: string) {
    return this.call({ operation: 'reschedule psc appointment', method: 'PATCH', path: path`/v3/order/${orderId}/psc/appointment/reschedule`, json: { booking_key: bookingKey }, response: Appointment });
  }

  /** Sent in the SDK's spelling (camelCase); the service takes both. */
  async cancelPscAppointment(orderId: string, reasonId: string, note?: string | null) {
    return this.call({
      operation: 'cancel psc appointment',
      method: 'PATCH',
      path: path`/v3/order/${orderId}/psc/appointment/cancel`,
      json: { cancellationReasonId: reasonId, ...(note ? { note } : {}) },
      response: Appointment,
    });
  }

  async pscCancellationReasons() {
    return this.call({ operation: 'psc cancellation reasons', path: '/v3/order/psc/appointment/cancellation-reasons', response: CancellationReasons });
  }

  async markDrawCompleted(orderId: string) {
    return this.call({ operation: 'draw completed', method: 'PATCH', path: path`/v3/order/${orderId}/draw_completed`, response: PostOrderResponse });
  }

  // --- Lab-report parsing jobs ----------------------------------------------------------------

  /** One page of the team's jobs (no `data` in the items); `next_cursor` null on the last page. */
  async listParsingJobs(q: ParsingJobsListQuery) {
    return this.call({ operation: 'list parsing jobs', path: '/lab_report/v1/parser/jobs', query: q, response: ParsingJobsResponse });
  }

  /** The team's parse queue (an extension of this service; other deployments answer 404). */
  async getParserQueue() {
    return this.call({ operation: 'get parser queue', path: '/lab_report/v1/parser/queue', response: ParserQueue });
  }

  async getParsingJob(jobId: string) {
    return this.call({ operation: 'get parsing job', path: path`/lab_report/v1/parser/job/${jobId}`, response: ParsingJob });
  }

  /** Passed through as given (the service validates it); `reviewer` is the caller's to set. */
  async reviewParsingJob(jobId: string, body: WireBody<typeof ParsingJobReviewBody>) {
    return this.call({ operation: 'review parsing job', method: 'POST', path: path`/lab_report/v1/parser/job/${jobId}/review`, json: body, response: ParsingJob });
  }

  /** The uploaded file, streamed through unparsed (the caller checks the content type). */
  async parsingJobFile(jobId: string): Promise<BinaryAnswer> {
    return this.binary('parsing job file', path`/lab_report/v1/parser/job/${jobId}/file`, 'application/pdf, image/jpeg, image/png, application/json');
  }

  /**
   * Uploads a report: the browser's multipart/form-data body goes on to the service as it arrives
   * (chunked; the service reads the file part, sniffs it and enforces 10 MB). Errors of `form.body`
   * (e.g. the caller's size limit) reject the call like a connection error would.
   */
  async createParsingJob(form: StreamedForm) {
    return this.call({
      operation: 'create parsing job',
      method: 'POST',
      path: '/lab_report/v1/parser/job',
      raw: form,
      timeoutMs: this.opts.uploadTimeoutMs ?? Math.max(300_000, this.opts.timeoutMs ?? 0),
      response: ParsingJob,
    });
  }

  // --- Webhook endpoints -----------------------------------------------------------------------

  async listWebhookEndpoints() {
    return this.call({ operation: 'list webhook endpoints', path: '/v2/webhooks/endpoints', response: WebhookEndpointList });
  }

  async getWebhookEndpoint(endpointId: string) {
    return this.call({ operation: 'get webhook endpoint', path: path`/v2/webhooks/endpoints/${endpointId}`, response: WebhookEndpoint });
  }

  /** 201 with the endpoint and its signing secret (answered once; see `webhookEndpointSecret`). */
  async createWebhookEndpoint(body: WireBody<typeof CreateWebhookEndpointBody>) {
    return this.call({ operation: 'create webhook endpoint', method: 'POST', path: '/v2/webhooks/endpoints', json: body, response: CreatedWebhookEndpoint });
  }

  async updateWebhookEndpoint(endpointId: string, body: WireBody<typeof PatchWebhookEndpointBody>) {
    return this.call({ operation: 'update webhook endpoint', method: 'PATCH', path: path`/v2/webhooks/endpoints/${endpointId}`, json: body, response: WebhookEndpoint });
  }

  async deleteWebhookEndpoint(endpointId: string): Promise<void> {
    await this.call({ operation: 'delete webhook endpoint', method: 'DELETE', path: path`/v2/webhooks/endpoints/${endpointId}`, response: z.unknown() });
  }

  async webhookEndpointSecret(endpointId: string) {
    return this.call({ operation: 'webhook endpoint secret', path: path`/v2/webhooks/endpoints/${endpointId}/secret`, response: WebhookEndpointSecret });
  }

  async listWebhookDeliveries(endpointId: string, q: DeliveriesListQuery) {
    return this.call({ operation: 'list webhook deliveries', path: path`/v2/webhooks/endpoints/${endpointId}/deliveries`, query: q, response: WebhookDeliveryList });
  }

  async getWebhookDelivery(endpointId: string, deliveryId: string) {
    return this.call({ operation: 'get webhook delivery', path: path`/v2/webhooks/endpoints/${endpointId}/deliveries/${deliveryId}`, response: WebhookDelivery });
  }

  /** 202 with the delivery (pending again); 409 while it is pending or the endpoint is disabled. */
  async replayWebhookDelivery(endpointId: string, deliveryId: string) {
    return this.call({
      operation: 'replay webhook delivery',
      method: 'POST',
      path: path`/v2/webhooks/endpoints/${endpointId}/deliveries/${deliveryId}/replay`,
      response: WebhookDelivery,
    });
  }

  /**
   * Names this upstream (base URL and team key) without revealing the key: part of the BFF's
   * cursor-cache keys, so cursors of one deployment or team are never replayed against another.
   */
  get cacheScope(): string {
    return createHash('sha256').update(`${this.baseUrl}\n${this.opts.apiKey}`).digest('hex').slice(0, 32);
  }

  private get slowTimeout() {
    // Never shorter than the ordinary limit an operator may have raised.
    return this.opts.slowTimeoutMs ?? Math.max(45_000, this.opts.timeoutMs ?? 0);
  }

  /**
   * Sends one call and answers the raw response; no answer at all (or none in time) is an UpstreamError.
   * A read whose kept-alive connection the service closed just as it was reused is sent once more,
   * on a new connection, as browsers do: the request never reached the service's handler, and
   * reading twice changes nothing. A write is never sent twice.
   */
  private async send(call: Omit<Call<z.ZodType>, 'response'>, accept: string): Promise<Answer> {
    const idempotent = !call.raw && (call.method ?? 'GET') === 'GET';
    try {
      return await this.sendOnce(call, accept);
    } catch (err) {
      if (!idempotent || !(err instanceof UpstreamError) || err.status !== 0 || !CLOSED_CONNECTION.has(err.reason ?? '')) throw err;
      return this.sendOnce(call, accept);
    }
  }

  private async sendOnce(call: Omit<Call<z.ZodType>, 'response'>, accept: string): Promise<Answer> {
    const { raw, json } = call;
    try {
      return await this.transport.request({
        method: call.method ?? 'GET',
        target: call.path + queryString(call.query),
        headers: {
          'x-service-api-key': this.opts.apiKey,
          accept,
          ...(raw ? { 'content-type': raw.contentType } : json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...call.headers,
        },
        // A streamed request body is sent while the answer may already be arriving.
        body: raw ? raw.body : json !== undefined ? JSON.stringify(json) : undefined,
        timeoutMs: call.timeoutMs ?? this.opts.timeoutMs ?? 15_000,
      });
    } catch (err) {
      throw this.noAnswer(err, call.operation);
    }
  }

  /** A transport failure as the UpstreamError callers know: 504 for the deadline, 0 for no answer. */
  private noAnswer(err: unknown, operation: string): UpstreamError {
    if (err instanceof NoAnswer) return new UpstreamError(err.timedOut ? 504 : 0, null, operation, err.code);
    if (err instanceof AnswerTooLarge) return new UpstreamError(502, `an answer larger than ${err.limit} bytes for ${operation}`, operation);
    return new UpstreamError(0, null, operation, err instanceof Error ? err.name : 'unknown');
  }

  /** An answer's whole body, within the size limit and the call's deadline. */
  private async readText(res: Answer, operation: string): Promise<string> {
    try {
      return await res.text(this.opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES);
    } catch (err) {
      throw this.noAnswer(err, operation);
    }
  }

  /** A JSON call: the answer parsed with the contract's schema (another shape is a 502). */
  private async call<S extends z.ZodType>(call: Call<S>): Promise<z.output<S>> {
    return (await this.callWithStatus(call)).data;
  }

  /** A JSON call whose success status means something (201 created vs 200 already there). */
  private async callWithStatus<S extends z.ZodType>(call: Call<S>): Promise<{ status: number; data: z.output<S> }> {
    const res = await this.send(call, 'application/json');
    if (!res.ok) throw await upstreamError(res, call.operation);
    const text = await this.readText(res, call.operation);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw new UpstreamError(502, `an answer that is not JSON for ${call.operation}`, call.operation);
    }
    const parsed = call.response.safeParse(json);
    if (!parsed.success) throw new UpstreamError(502, `unexpected answer shape for ${call.operation}`, call.operation);
    return { status: res.status, data: parsed.data };
  }

  /** A file answer (a PDF, an upload), streamed through unparsed; the caller checks its type. */
  private async binary(operation: string, at: string, accept: string): Promise<BinaryAnswer> {
    const res = await this.send({ operation, path: at }, accept);
    if (!res.ok) throw await upstreamError(res, operation);
    const length = Number.parseInt(res.header('content-length') ?? '', 10);
    return {
      body: res.stream(),
      contentType: res.header('content-type') ?? 'application/octet-stream',
      contentLength: Number.isSafeInteger(length) && length >= 0 ? length : null,
    };
  }
}

import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import {
  Appointment,
  AvailabilityResponse,
  CancellationReasons,
  CreatedWebhookEndpoint,
  GroupedTimeseriesResponse,
  Lab,
  LabAccountsResponse,
  LabTest,
  MarkersResponse,
  type MarkersQuery,
  Order,
  OrdersResponse,
  PaginatedUsers,
  ParsingJob,
  ParserQueue,
  ParsingJobsResponse,
  PostOrderResponse,
  User,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointSecret,
} from '../../contract';
import { UpstreamError } from './errors';

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
}

/** `GET /lab_report/v1/parser/jobs` query (wire names); `status` is sent as repeated keys. */
export interface ParsingJobsListQuery {
  status?: string[];
  stage?: string;
  needs_human_review?: boolean;
  is_reviewed?: boolean;
  user_id?: string;
  order?: 'asc' | 'desc';
  limit?: number;
  next_cursor?: string | null;
}

/** `GET /v2/webhooks/endpoints/{id}/deliveries` query (wire names). */
export interface DeliveriesListQuery {
  status?: string;
  limit?: number;
  cursor?: string | null;
}

/** A multipart/form-data body streamed on to the service as it arrives (never buffered whole). */
export interface StreamedForm {
  /** The bytes as the browser sent them (boundary and all). */
  body: AsyncIterable<Uint8Array>;
  /** The browser's Content-Type, with its boundary. */
  contentType: string;
}

/** `GET /v3/lab_tests/markers` query (wire names). */
export type MarkersListQuery = z.output<typeof MarkersQuery>;

/** `GET /v3/lab_tests` query (wire names). */
export interface LabTestsListQuery {
  lab_slug?: string;
  collection_method?: string;
  status?: string;
  name?: string;
  generation_method?: 'auto' | 'manual' | 'all';
}

/** `GET /v3/orders` query (wire names); arrays are sent as repeated keys. */
export interface OrdersListQuery {
  page: number;
  size: number;
  status?: string[];
  order_type?: string[];
  user_id?: string;
  start_date?: string;
  end_date?: string;
  search_input?: string;
  order_key?: 'created_at' | 'patient_name' | 'last_status';
  order_direction?: 'asc' | 'desc';
}

/** A binary answer passed through as a stream (e.g. a requisition PDF). */
export interface BinaryAnswer {
  body: Readable;
  contentType: string;
  contentLength: number | null;
}

/** Query string with repeated keys for arrays; undefined, null and '' are left out. */
function queryString(params: Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) q.append(key, String(v));
    else q.set(key, String(value));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const appointmentPath = (orderId: string) => `/v3/order/${encodeURIComponent(orderId)}/phlebotomy/appointment`;

export interface MindfulnessQuery {
  start_date: string;
  end_date?: string;
  provider?: string;
  next_cursor?: string | null;
}

/**
 * The typed client of the service. It speaks only HTTP, so it works against any deployment, and
 * parses every answer with the shared contract: a deployment that answers in another shape is
 * reported as such (502), not passed on half-understood.
 */
export class ServiceClient {
  private readonly baseUrl: string;
  constructor(private readonly opts: ServiceClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }

  /**
   * The SDK (so the production service) lists users at `/v2/user`, the interface at `/v2/user/`;
   * a deployment may serve only one. Try the SDK's, fall back once on 404/405, remember what worked.
   */
  private usersPath: string | null = null;

  async listUsers(offset: number, limit: number) {
    const query = `?offset=${offset}&limit=${limit}`;
    if (this.usersPath) return this.get('list users', this.usersPath + query, PaginatedUsers);
    let page: PaginatedUsers;
    try {
      page = await this.get('list users', `/v2/user${query}`, PaginatedUsers);
      this.usersPath = '/v2/user';
    } catch (err) {
      if (!(err instanceof UpstreamError) || (err.status !== 404 && err.status !== 405)) throw err;
      page = await this.get('list users', `/v2/user/${query}`, PaginatedUsers);
      this.usersPath = '/v2/user/';
    }
    return page;
  }

  getUser(userId: string) {
    return this.get('get user', `/v2/user/${encodeURIComponent(userId)}`, User);
  }

  resolveUser(clientUserId: string) {
    return this.get('resolve user', `/v2/user/resolve/${encodeURIComponent(clientUserId)}`, User);
  }

  mindfulnessMinutesGrouped(userId: string, q: MindfulnessQuery) {
    const params = new URLSearchParams({ start_date: q.start_date });
    if (q.end_date) params.set('end_date', q.end_date);
    if (q.provider) params.set('provider', q.provider);
    if (q.next_cursor) params.set('next_cursor', q.next_cursor);
    return this.get(
      'mindfulness minutes',
      `/v2/timeseries/${encodeURIComponent(userId)}/mindfulness_minutes/grouped?${params}`,
      GroupedTimeseriesResponse,
    );
  }

  // --- Lab catalogue -------------------------------------------------------------------------

  /** The team's lab accounts, all in one list (the service does not paginate them). */
  listLabAccounts(q: { status?: string; lab_account_id?: string } = {}) {
    return this.get('list lab accounts', `/v3/lab_test/lab_account${queryString(q)}`, LabAccountsResponse);
  }

  listMarkers(q: MarkersListQuery) {
    return this.get('list markers', `/v3/lab_tests/markers${queryString({ ...q })}`, MarkersResponse);
  }

  listLabs() {
    return this.get('list labs', '/v3/lab_tests/labs', z.array(Lab));
  }

  listLabTests(q: LabTestsListQuery = {}) {
    return this.get('list lab tests', `/v3/lab_tests${queryString({ ...q })}`, z.array(LabTest));
  }

  getLabTest(labTestId: string) {
    return this.get('get lab test', `/v3/lab_tests/${encodeURIComponent(labTestId)}`, LabTest);
  }

  // --- Orders ----------------------------------------------------------------------------------

  /**
   * Places an order. `idempotencyKey` goes out as `X-Idempotency-Key`: the service answers a
   * repeat of the same key and body with the first answer, so a retried submit makes one order.
   */
  createOrder(body: Record<string, unknown>, idempotencyKey?: string) {
    return this.request(
      'create order',
      'POST',
      '/v3/order/create',
      PostOrderResponse,
      body,
      idempotencyKey ? { 'x-idempotency-key': idempotencyKey } : undefined,
    );
  }

  getOrder(orderId: string) {
    return this.get('get order', `/v3/order/${encodeURIComponent(orderId)}`, Order);
  }

  listOrders(q: OrdersListQuery) {
    return this.get('list orders', `/v3/orders${queryString({ ...q })}`, OrdersResponse);
  }

  cancelOrder(orderId: string) {
    return this.request('cancel order', 'POST', `/v3/order/${encodeURIComponent(orderId)}/cancel`, PostOrderResponse);
  }

  /** The requisition PDF, streamed through unparsed. */
  orderRequisitionPdf(orderId: string): Promise<BinaryAnswer> {
    return this.binary('requisition pdf', `/v3/order/${encodeURIComponent(orderId)}/requisition/pdf`);
  }

  // --- At-home phlebotomy appointments ---------------------------------------------------------

  /** The order's latest appointment (any status); 404 when the order has none (or is unknown). */
  getOrderAppointment(orderId: string) {
    return this.get('get appointment', appointmentPath(orderId), Appointment);
  }

  /** Slots of 14 days at an address (a bare USAddress body); `startDate` is YYYY-MM-DD. */
  appointmentAvailability(address: Record<string, unknown>, startDate?: string) {
    return this.request(
      'appointment availability',
      'POST',
      `/v3/order/phlebotomy/appointment/availability${queryString({ start_date: startDate })}`,
      AvailabilityResponse,
      address,
    );
  }

  /** Passed through as given: the service validates the body (ranges, notes) and answers 422 by field. */
  bookAppointment(orderId: string, body: Record<string, unknown>) {
    return this.request('book appointment', 'POST', `${appointmentPath(orderId)}/book`, Appointment, body, undefined, this.slowTimeout);
  }

  requestAppointment(orderId: string, body: Record<string, unknown>) {
    return this.request('request appointment', 'POST', `${appointmentPath(orderId)}/request`, Appointment, body);
  }

  rescheduleAppointment(orderId: string, body: Record<string, unknown>) {
    return this.request('reschedule appointment', 'PATCH', `${appointmentPath(orderId)}/reschedule`, Appointment, body, undefined, this.slowTimeout);
  }

  cancelAppointment(orderId: string, body: Record<string, unknown>) {
    return this.request('cancel appointment', 'PATCH', `${appointmentPath(orderId)}/cancel`, Appointment, body);
  }

  appointmentCancellationReasons() {
    return this.get('appointment cancellation reasons', '/v3/order/phlebotomy/appointment/cancellation-reasons', CancellationReasons);
  }

  // --- Lab-report parsing jobs ----------------------------------------------------------------

  /** One page of the team's jobs (no `data` in the items); `next_cursor` null on the last page. */
  listParsingJobs(q: ParsingJobsListQuery) {
    return this.get('list parsing jobs', `/lab_report/v1/parser/jobs${queryString({ ...q })}`, ParsingJobsResponse);
  }

  /** The team's parse queue (an extension of this service; other deployments answer 404). */
  getParserQueue() {
    return this.get('get parser queue', '/lab_report/v1/parser/queue', ParserQueue);
  }

  getParsingJob(jobId: string) {
    return this.get('get parsing job', `/lab_report/v1/parser/job/${encodeURIComponent(jobId)}`, ParsingJob);
  }

  /** Passed through as given (the service validates it); `reviewer` is the caller's to set. */
  reviewParsingJob(jobId: string, body: Record<string, unknown>) {
    return this.request('review parsing job', 'POST', `/lab_report/v1/parser/job/${encodeURIComponent(jobId)}/review`, ParsingJob, body);
  }

  /** The uploaded file, streamed through unparsed (the caller checks the content type). */
  parsingJobFile(jobId: string): Promise<BinaryAnswer> {
    return this.binary(
      'parsing job file',
      `/lab_report/v1/parser/job/${encodeURIComponent(jobId)}/file`,
      'application/pdf, image/jpeg, image/png, application/json',
    );
  }

  /**
   * Uploads a report: the browser's multipart/form-data body goes on to the service as it arrives
   * (chunked; the service reads the file part, sniffs it and enforces 10 MB). Errors of `form.body`
   * (e.g. the caller's size limit) reject the call like a connection error would.
   */
  createParsingJob(form: StreamedForm) {
    return this.request(
      'create parsing job',
      'POST',
      '/lab_report/v1/parser/job',
      ParsingJob,
      new RawBody(form.body, form.contentType),
      undefined,
      this.opts.uploadTimeoutMs ?? Math.max(300_000, this.opts.timeoutMs ?? 0),
    );
  }

  // --- Webhook endpoints -----------------------------------------------------------------------

  listWebhookEndpoints() {
    return this.get('list webhook endpoints', '/v2/webhooks/endpoints', WebhookEndpointList);
  }

  getWebhookEndpoint(endpointId: string) {
    return this.get('get webhook endpoint', `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}`, WebhookEndpoint);
  }

  /** 201 with the endpoint and its signing secret (answered once; see `webhookEndpointSecret`). */
  createWebhookEndpoint(body: Record<string, unknown>) {
    return this.request('create webhook endpoint', 'POST', '/v2/webhooks/endpoints', CreatedWebhookEndpoint, body);
  }

  updateWebhookEndpoint(endpointId: string, body: Record<string, unknown>) {
    return this.request('update webhook endpoint', 'PATCH', `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}`, WebhookEndpoint, body);
  }

  async deleteWebhookEndpoint(endpointId: string): Promise<void> {
    await this.request('delete webhook endpoint', 'DELETE', `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}`, z.unknown());
  }

  webhookEndpointSecret(endpointId: string) {
    return this.get('webhook endpoint secret', `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}/secret`, WebhookEndpointSecret);
  }

  listWebhookDeliveries(endpointId: string, q: DeliveriesListQuery) {
    return this.get(
      'list webhook deliveries',
      `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries${queryString({ ...q })}`,
      WebhookDeliveryList,
    );
  }

  getWebhookDelivery(endpointId: string, deliveryId: string) {
    return this.get(
      'get webhook delivery',
      `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}`,
      WebhookDelivery,
    );
  }

  /** 202 with the delivery (pending again); 409 while it is pending or the endpoint is disabled. */
  replayWebhookDelivery(endpointId: string, deliveryId: string) {
    return this.request(
      'replay webhook delivery',
      'POST',
      `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/replay`,
      WebhookDelivery,
    );
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

  private async binary(operation: string, path: string, accept = 'application/pdf, application/json'): Promise<BinaryAnswer> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        headers: { 'x-service-api-key': this.opts.apiKey, accept },
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new UpstreamError(timedOut ? 504 : 0, null, operation);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let detail: unknown = text.slice(0, 200);
      try {
        const json: unknown = JSON.parse(text);
        if (json && typeof json === 'object' && 'detail' in json) detail = (json as { detail: unknown }).detail;
      } catch {
        /* not JSON */
      }
      throw new UpstreamError(res.status, detail, operation);
    }
    if (!res.body) throw new UpstreamError(502, `empty answer for ${operation}`, operation);
    const length = Number.parseInt(res.headers.get('content-length') ?? '', 10);
    return {
      body: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      contentLength: Number.isSafeInteger(length) && length >= 0 ? length : null,
    };
  }

  private async get<S extends z.ZodType>(operation: string, path: string, schema: S): Promise<z.output<S>> {
    return this.request(operation, 'GET', path, schema);
  }

  private async request<S extends z.ZodType>(
    operation: string,
    method: string,
    path: string,
    schema: S,
    body?: unknown,
    extraHeaders?: Record<string, string>,
    timeoutMs?: number,
  ): Promise<z.output<S>> {
    const raw = body instanceof RawBody ? body : null;
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: {
          'x-service-api-key': this.opts.apiKey,
          accept: 'application/json',
          ...(raw ? { 'content-type': raw.contentType } : body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...extraHeaders,
        },
        body: raw ? (raw.stream as unknown as BodyInit) : body !== undefined ? JSON.stringify(body) : undefined,
        // A streamed request body (undici): sent while the answer may already be arriving.
        ...(raw && { duplex: 'half' }),
        signal: AbortSignal.timeout(timeoutMs ?? this.opts.timeoutMs ?? 15_000),
      } as RequestInit);
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new UpstreamError(timedOut ? 504 : 0, null, operation);
    }
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    if (!res.ok) {
      const detail = json && typeof json === 'object' && 'detail' in json ? (json as { detail: unknown }).detail : text.slice(0, 200);
      throw new UpstreamError(res.status, detail, operation);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new UpstreamError(502, `unexpected answer shape for ${operation}`, operation);
    return parsed.data;
  }
}

/** A request body sent as is (a stream), with its own content type. */
class RawBody {
  constructor(
    readonly stream: AsyncIterable<Uint8Array>,
    readonly contentType: string,
  ) {}
}

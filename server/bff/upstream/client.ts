import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import {
  Appointment,
  AvailabilityResponse,
  CancellationReasons,
  GroupedTimeseriesResponse,
  Lab,
  LabAccountsResponse,
  LabTest,
  MarkersResponse,
  type MarkersQuery,
  Order,
  OrdersResponse,
  PaginatedUsers,
  PostOrderResponse,
  User,
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

  private get slowTimeout() {
    // Never shorter than the ordinary limit an operator may have raised.
    return this.opts.slowTimeoutMs ?? Math.max(45_000, this.opts.timeoutMs ?? 0);
  }

  private async binary(operation: string, path: string): Promise<BinaryAnswer> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        headers: { 'x-service-api-key': this.opts.apiKey, accept: 'application/pdf, application/json' },
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
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: {
          'x-service-api-key': this.opts.apiKey,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...extraHeaders,
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs ?? this.opts.timeoutMs ?? 15_000),
      });
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

import type { z } from 'zod';
import { GroupedTimeseriesResponse, PaginatedUsers, User } from '../../contract';
import { UpstreamError } from './errors';

export interface ServiceClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
}

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

  private async get<S extends z.ZodType>(operation: string, path: string, schema: S): Promise<z.output<S>> {
    return this.request(operation, 'GET', path, schema);
  }

  private async request<S extends z.ZodType>(operation: string, method: string, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: {
          'x-service-api-key': this.opts.apiKey,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
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

/**
 * Page tests on the real stack: the real service and the real BFF, in-process (both Fastify apps
 * on in-memory stores), with the dashboard's `/api` requests (fetch and XMLHttpRequest alike)
 * intercepted by MSW and handed to the BFF as a browser would send them: the HttpOnly session
 * cookie kept in a jar and sent back, the CSRF header as the dashboard sets it. The BFF's own
 * calls to the service go over real HTTP and pass through. Nothing here answers for the BFF, so
 * these tests cannot drift from it.
 *
 * Where a test needs a failure the stack cannot give on demand, `cannedAnswer` builds one from the
 * BFF contract's error schema: a canned answer the real BFF could not give fails the test.
 */
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ErrorBody } from '../../server/bff/api';
import { PASSWORD, staffEmail, startBff, type BffFixture, type StaffKey } from '../bff/harness';
import { startLabService, type LabServiceFixture } from '../bff/ordersFixture';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
  /** Answered by `failNext`, not by the BFF. */
  canned?: boolean;
  /** When it was sent and answered, as steps of one count shared by all requests (an order, not a time). */
  sentStep?: number;
  answeredStep?: number;
}

/** A request as the tests read it: JSON bodies parsed, others as bytes, every header kept. */
async function seen(request: Request): Promise<SeenRequest> {
  const url = new URL(request.url);
  const bytes = ['GET', 'HEAD'].includes(request.method) ? undefined : Buffer.from(await request.arrayBuffer());
  const type = request.headers.get('content-type') ?? '';
  const headers = new Headers();
  request.headers.forEach((value, key) => headers.set(key, value));
  return {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers,
    body: bytes && type.includes('json') && bytes.length ? JSON.parse(bytes.toString('utf8')) : bytes,
  };
}

export interface RealStack {
  /** The real service with its lab catalogue and both teams' demo lab accounts (test/bff/ordersFixture.ts). */
  service: LabServiceFixture;
  bff: BffFixture;
  /** Every `/api` request the dashboard made since the last `reset()`. */
  requests: SeenRequest[];
  /** The browser's cookie jar: signed out, nothing recorded (a fresh tab). */
  reset(): void;
  /** The Cookie header the browser would send now. */
  cookie(): string;
  /** Routes the dashboard to another BFF app on the same store (e.g. one with another team's key); null: back to the first. */
  useBffApp(app: FastifyInstance | null): void;
  /** Signs in through the real BFF, as a returning member whose session cookie is still valid. */
  signInAs(who: StaffKey): Promise<void>;
  /** The interception layer, for the rare failure the real stack cannot give (see `failNext`). */
  msw: ReturnType<typeof setupServer>;
  close(): Promise<void>;
}

export const STAFF_PASSWORD = PASSWORD;
export { staffEmail };

export async function startRealStack(): Promise<RealStack> {
  const service = await startLabService();
  const bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  const jar = new Map<string, string>();
  let current: FastifyInstance = bff.app;
  const requests: SeenRequest[] = [];
  let step = 0;

  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keepCookies = (setCookie: string | string[] | undefined) => {
    for (const line of [setCookie ?? []].flat()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (!name) continue;
      if (expired || value === '') jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
  };

  const server = setupServer(
    http.all('*/api/*', async ({ request }) => {
      const url = new URL(request.url);
      const record: SeenRequest = { ...(await seen(request.clone())), sentStep: ++step };
      const bytes = ['GET', 'HEAD'].includes(request.method) ? undefined : Buffer.from(await request.arrayBuffer());
      requests.push(record);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, key) => {
        headers[key] = value;
      });
      if (jar.size) headers.cookie = cookieHeader();
      const answer = await current.inject({ method: request.method as 'GET', url: url.pathname + url.search, headers, payload: bytes });
      keepCookies(answer.headers['set-cookie'] as string | string[] | undefined);
      record.answeredStep = ++step;
      const out = new Headers();
      for (const [key, value] of Object.entries(answer.headers)) {
        if (key === 'set-cookie' || value === undefined) continue;
        out.set(key, String(value));
      }
      return new HttpResponse(answer.statusCode === 204 ? null : answer.rawPayload, { status: answer.statusCode, headers: out });
    }),
  );
  server.listen({ onUnhandledRequest: 'bypass' });

  return {
    service,
    bff,
    requests,
    cookie: cookieHeader,
    useBffApp(app) {
      current = app ?? bff.app;
    },
    reset() {
      jar.clear();
      requests.length = 0;
      server.resetHandlers();
    },
    async signInAs(who) {
      const answer = await current.inject({ method: 'POST', url: '/api/auth/login', payload: { email: staffEmail(who), password: PASSWORD } });
      if (answer.statusCode !== 200) throw new Error(`signing in as ${who}: ${answer.statusCode}`);
      keepCookies(answer.headers['set-cookie'] as string | string[] | undefined);
    },
    msw: server,
    async close() {
      server.close();
      await bff.close();
      await service.close();
    },
  };
}

/**
 * A failure the real stack cannot give on demand (a 502 from a dead upstream at one moment), for
 * the next matching request only. The body must be one the BFF can answer: its contract's
 * `ErrorBody`, checked here.
 */
export function failNext(stack: RealStack, method: 'get' | 'post' | 'put' | 'delete', path: string, status: number, body: z.input<typeof ErrorBody>) {
  const checked = ErrorBody.parse(body) as JsonBodyType;
  if (status < 400) throw new Error('failNext is for failures');
  stack.msw.use(
    http[method](
      `*${path}`,
      async ({ request }) => {
        // The dashboard did send it: recorded like every other request, marked as answered here.
        stack.requests.push({ ...(await seen(request)), canned: true });
        return HttpResponse.json(checked, { status });
      },
      { once: true },
    ),
  );
}

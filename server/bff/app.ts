import { withSafeSerializers } from '../lib/logging';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../store/db';
import type { Notifications } from '../store/notify';
import authPlugin, { permissionOf, requireMfaEnrolment, requireSession } from './auth/plugin';
import type { Permission } from './api/roles';
import { authRoutes } from './auth/routes';
import { DEFAULT_SESSION_POLICY, purgeExpiredSessions, type SessionPolicy } from './auth/sessions';
import { DEFAULT_THROTTLE_POLICY, purgeStaleThrottles, type ThrottlePolicy } from './auth/throttle';
import type { BffSchema } from './db/schema';
import { BffError } from './errors';
import auditPlugin from './plugins/audit';
import errors from './plugins/errors';
import openapi from './plugins/openapi';
import { appointmentsResource } from './resources/appointments';
import { auditEventsResource } from './resources/auditEvents';
import { labAccountsResource } from './resources/labAccounts';
import { labsResource, labTestsResource } from './resources/labTests';
import { markersResource } from './resources/markers';
import { resultsResource } from './resources/results';
import { icdCodesResource } from './resources/icdCodes';
import { walkInResource } from './resources/walkIn';
import { ordersResource } from './resources/orders';
import { overviewResource } from './resources/overview';
import { orderTriageResource } from './resources/orderTriage';
import { parserJobsResource } from './resources/parserJobs';
import { rolePoliciesResource, staffResource } from './resources/staff';
import { usersResource } from './resources/users';
import { webhookDeliveriesResource } from './resources/webhookDeliveries';
import { webhookEndpointsResource } from './resources/webhookEndpoints';
import { ServiceClient } from './upstream/client';
import { indexPages, sendIndex } from './indexHtml';

declare module 'fastify' {
  interface FastifyInstance {
    bffDb: Database<BffSchema>;
    /** Every route and the permission it checks (null: sign-in routes, or any signed-in member). */
    routeAccess: RouteAccess[];
  }
}

export interface RouteAccess {
  method: string;
  url: string;
  permission: Permission | null;
}

export interface BffAppOptions {
  db: Database<BffSchema>;
  /**
   * The store's LISTEN/NOTIFY (Store.notifications): with it, live sessions are cached in the
   * process and forgotten the moment the store announces a change (server/bff/auth/sessionCache.ts);
   * without it, every request reads its session from the store.
   */
  notifications?: Notifications;
  serviceBaseUrl: string;
  serviceApiKey: string;
  sessionSecret: string;
  /** The built dashboard (dist/); when absent only /api is served. */
  staticDir?: string;
  sessionPolicy?: SessionPolicy;
  /** Sign-in throttling per account and per address (server/bff/auth/throttle.ts). */
  signInThrottle?: ThrottlePolicy;
  /**
   * Behind a reverse proxy: which proxies' `X-Forwarded-For/-Proto/-Host` to believe (Fastify's
   * `trustProxy`: true, a hop count, or addresses/CIDRs). Off by default: a client could otherwise
   * claim any address (and escape its sign-in throttle) or claim https.
   */
  trustProxy?: boolean | number | string | string[];
  logger?: FastifyServerOptions['logger'];
}

const hopsOf = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Cookies, CSRF tokens and credentials never reach the logs. */
export const bffLoggerRedact = ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'];

/**
 * Vite names every file under assets/ by a hash of its content, so one URL always means the same
 * bytes: browsers keep them for a year without asking again. Anything else (the favicon) is
 * revalidated; index.html, which names the hashes, is sent with `no-cache` by its own routes.
 */
export function staticCacheControl(root: string, filePath: string): string {
  const relative = path.relative(path.resolve(root), filePath).split(path.sep);
  return relative.length > 1 && relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export async function buildBffApp(opts: BffAppOptions) {
  const policy = opts.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  const throttle = opts.signInThrottle ?? DEFAULT_THROTTLE_POLICY;
  // Route patterns and ids, never URLs or values: see server/lib/logging.ts.
  const app = Fastify({
    logger: withSafeSerializers(opts.logger ?? false),
    bodyLimit: 12 * 1024 * 1024,
    // A hop count trusts that many proxies in front (proxy-addr's rule, which Fastify's types leave out).
    trustProxy: typeof opts.trustProxy === 'number' ? hopsOf(opts.trustProxy) : (opts.trustProxy ?? false),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Answers are the service's records passed on: documented by their schemas, never re-validated
  // on the way out (a deployment with a newer status or field must still be served, not a 500).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // /api answers carry patient data: no cache keeps one unless a route says otherwise. The
  // dashboard's files set their own (hashed assets may be cached; the shell is revalidated).
  app.addHook('onSend', async (_req, reply) => {
    // A 401 carries only "sign in": `no-cache` there, since Chromium drops a no-store 401's body
    // from DevTools once the page moves on (the end-to-end watch reads every body for leaks).
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', reply.statusCode === 401 ? 'no-cache' : 'no-store');
  });
  // Over https (directly or, with TRUST_PROXY, as the proxy says) browsers are told to never use
  // plain http for this host again. Never over http: HSTS there is ignored, and would be wrong.
  app.addHook('onSend', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
  // Source maps are not built for production; should one be left in the folder, it is not served.
  app.addHook('onRequest', async (req) => {
    if (/\.map$/i.test(req.url.split('?')[0] ?? '')) throw new BffError(404, 'Not found');
  });

  const routeAccess: RouteAccess[] = [];
  app.decorate('routeAccess', routeAccess);
  app.addHook('onRoute', (route) => {
    if (route.schema?.hide || !route.url.startsWith('/api')) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeAccess.push({ method, url: route.url, permission: permissionOf(route.preValidation) });
    }
  });

  await app.register(
    fp(
      async (i) => {
        i.decorate('bffDb', opts.db);
      },
      { name: 'bff-db' },
    ),
  );
  await app.register(auditPlugin);
  await app.register(errors);
  await app.register(openapi);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // MUI/emotion inject <style> tags at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        // pdf.js (the parser review's document view) runs its worker from the dashboard's own
        // origin (`new Worker(<same-origin url>, {type: 'module'})`), never from a blob: URL.
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
  });
  await app.register(authPlugin, { sessionSecret: opts.sessionSecret, policy, notifications: opts.notifications });

  const client = new ServiceClient({ baseUrl: opts.serviceBaseUrl, apiKey: opts.serviceApiKey });
  app.get('/healthz', { logLevel: 'silent', schema: { hide: true } }, async () => ({ status: 'ok' }));
  await app.register(authRoutes({ policy, throttle }), { prefix: '/api/auth' });
  await app.register(
    async (api) => {
      api.addHook('preValidation', requireSession);
      // A role that requires two-factor: nothing but enrolment (under /api/auth) until it is set up.
      api.addHook('preValidation', requireMfaEnrolment);
      // The BFF's own contract (server/bff/api/), for staff and their tools.
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(usersResource(client), { prefix: '/users' });
      await api.register(auditEventsResource, { prefix: '/audit-events' });
      await api.register(staffResource, { prefix: '/staff' });
      await api.register(rolePoliciesResource, { prefix: '/role-policies' });
      // Full paths (/orders/:id/triage/..., /orders/triage/bulk-...): the BFF's own triage state.
      await api.register(orderTriageResource(client));
      await api.register(ordersResource(client), { prefix: '/orders' });
      await api.register(icdCodesResource(client), { prefix: '/icd-codes' });
      await api.register(labAccountsResource(client), { prefix: '/lab-accounts' });
      await api.register(markersResource(client), { prefix: '/markers' });
      await api.register(labTestsResource(client), { prefix: '/lab-tests' });
      await api.register(labsResource(client), { prefix: '/labs' });
      // Full paths (/appointments/..., /orders/:id/appointment/...): the actions sit under the
      // orders' URLs but are the appointments' routes. Addresses and notes: path-only log lines.
      await api.register(appointmentsResource(client));
      await api.register(walkInResource(client));
      // Full paths too: results under /orders/:id/..., biomarkers under /users/:id/..., /team-settings.
      await api.register(resultsResource(client));
      // Uploads stream through (the scope reads multipart bodies itself); filters may carry ids only,
      // but the log lines still name the path alone.
      await api.register(parserJobsResource(client), { prefix: '/parser-jobs' });
      await api.register(webhookEndpointsResource(client), { prefix: '/webhook-endpoints' });
      await api.register(webhookDeliveriesResource(client), { prefix: '/webhook-deliveries' });
      // Counts per queue, each for the roles that hold the queue's permission (no permission of its own).
      await api.register(overviewResource(client), { prefix: '/overview' });
      // Unknown /api routes too: 401 without a session, 403 without the CSRF token, then 404.
      api.setNotFoundHandler({ preHandler: requireSession }, async (req) => {
        throw new BffError(404, `No route ${req.method} ${req.url.split('?')[0]}`);
      });
    },
    { prefix: '/api' },
  );

  const indexHtml = opts.staticDir && path.join(opts.staticDir, 'index.html');
  if (opts.staticDir && indexHtml && fs.existsSync(indexHtml)) {
    await app.register(fastifyStatic, {
      root: path.resolve(opts.staticDir),
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each file (scripts/precompress.ts): sent by the request's
      // Accept-Encoding with `Vary: Accept-Encoding`, the file itself to a client that takes neither.
      preCompressed: true,
      // Not routes of their own: only ever sent in place of the file they compress.
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', staticCacheControl(opts.staticDir ?? '', filePath)),
    });
    const pages = indexPages(fs.readFileSync(indexHtml, 'utf8'));
    // Client-side routes (e.g. /users/123/show) load the app shell; /api never does.
    app.setNotFoundHandler(async (req, reply) => {
      if (req.method === 'GET' && !req.url.startsWith('/api/') && !path.extname(req.url.split('?')[0] ?? '')) {
        return sendIndex(pages, req, reply);
      }
      throw new BffError(404, `No route ${req.method} ${req.url.split('?')[0]}`);
    });
    app.get('/', async (req, reply) => sendIndex(pages, req, reply));
  } else {
    app.setNotFoundHandler(async (req) => {
      throw new BffError(404, `No route ${req.method} ${req.url.split('?')[0]}`);
    });
  }

  const sweep = setInterval(() => {
    void purgeExpiredSessions(opts.db, policy).catch(() => {});
    void purgeStaleThrottles(opts.db, throttle).catch(() => {});
  }, 10 * 60_000);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    client.close();
  });
  return app;
}

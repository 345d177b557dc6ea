import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerSerializerCompiler } from './plugins/compiledAnswers';
import { withSafeSerializers } from '../lib/logging';
import type { Database } from '../store/db';
import type { Notifications } from '../store/notify';
import { enableCatalogueCache } from './domain/labs/catalogueCache';
import { ApiKeyCache } from './domain/apiKeyCache';
import { adminRoutes } from './admin/teams';
import type { ServiceSchema } from './db/schema';
import type { ReaderPool } from './sandbox/readerPool';
import { CursorCodec } from './domain/cursor';
import { providerLogoSvg } from './domain/providers';
import { persistentSecret } from './domain/settings';
import apiKeyAuth from './plugins/apiKeyAuth';
import errors from './plugins/errors';
import textRule from './plugins/textRule';
import emptyJsonBody from './plugins/emptyJsonBody';
import openapi from './plugins/openapi';
import timeseriesRoutes from './v2/timeseries';
import usersRoutes from './v2/users';
import { webhooksRoutes } from './v2/webhooks';
import parserJobsRoutes from './lab-report/v1/parserJobs';
import appointmentsRoutes from './v3/appointments';
import insuranceRoutes from './v3/insurance';
import pscRoutes from './v3/psc';
import labAccountsRoutes from './v3/labAccounts';
import labTestsRoutes from './v3/labTests';
import markersRoutes from './v3/markers';
import orderSandboxRoutes from './v3/orderSandbox';
import ordersRoutes from './v3/orders';
import resultsRoutes from './v3/results';
import teamSettingsRoutes from './v2/teamSettings';
import biomarkersRoutes from './v2/biomarkers';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database<ServiceSchema>;
    cursors: CursorCodec;
    /** API key → team, cached in the process and dropped on every announced revocation. */
    apiKeys: ApiKeyCache;
    /** The sandboxed document readers, where this process runs them (absent in most tests). */
    readers: ReaderPool | undefined;
  }
}

export interface ServiceAppOptions {
  db: Database<ServiceSchema>;
  /** Enables the operator API under /admin/v1. */
  adminToken?: string;
  logger?: FastifyServerOptions['logger'];
  /** Webhook endpoints may point at private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_URLS). */
  webhookAllowPrivateUrls?: boolean;
  /** The reader pool parsing uploads, for the queue and metrics endpoints. */
  readers?: ReaderPool;
  /**
   * The store's LISTEN/NOTIFY (Store.notifications): with it, API keys are cached in the process
   * and every process forgets them the moment one is revoked; without it every request asks the store.
   */
  notifications?: Notifications;
  /**
   * Check every answer against the contract as well as writing it with the compiled serializer
   * (plugins/compiledAnswers.ts); default: when LABDESK_CHECK_ANSWERS=1 (the test suites).
   */
  checkAnswers?: boolean;
}

/** Never log credentials, and never log request bodies or query strings that may carry health data. */
export const serviceLoggerRedact = ['req.headers["x-service-api-key"]', 'req.headers["x-admin-token"]'];

export async function buildServiceApp(opts: ServiceAppOptions) {
  const app = Fastify({
    // Route patterns and ids, never URLs or values: see server/lib/logging.ts.
    logger: withSafeSerializers(opts.logger ?? false),
    // Path parameters carry client_user_id (up to 255 characters), beyond the router's default of 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    // A malformed or over-long path is invalid input like any other: 422 in the one error shape.
    frameworkErrors: (error: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
      reply.status(422).send({ detail: [{ loc: ['path'], msg: error.message, type: 'value_error.path' }] });
    },
    bodyLimit: 12 * 1024 * 1024,
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler({ checkAnswers: opts.checkAnswers ?? process.env.LABDESK_CHECK_ANSWERS === '1' }));

  const cursorSecret = await persistentSecret(opts.db, 'cursor_signing_key');
  const apiKeys = await ApiKeyCache.create(opts.db, opts.notifications);
  app.addHook('onClose', async () => apiKeys.close());
  const stopCatalogueCache = await enableCatalogueCache(opts.db, opts.notifications);
  app.addHook('onClose', async () => stopCatalogueCache());
  await app.register(
    fp(async (instance) => {
      instance.decorate('db', opts.db);
      instance.decorate('cursors', new CursorCodec(cursorSecret));
      instance.decorate('apiKeys', apiKeys);
      instance.decorate('readers', opts.readers);
      instance.decorateRequest('teamId', '');
    }, { name: 'db' }),
  );
  await app.register(errors);
  await app.register(emptyJsonBody);
  await app.register(textRule);
  await app.register(openapi);

  // Answers carry patient data: no cache (browser, proxy or CDN) keeps one, unless a route says
  // otherwise (a provider's logo).
  app.addHook('onSend', async (_req, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  app.get('/healthz', { schema: { hide: true }, logLevel: 'silent' }, async () => ({ status: 'ok' }));
  app.get<{ Params: { slug: string } }>('/v2/providers/:slug/logo.svg', { schema: { hide: true } }, async (req, reply) => {
    const svg = providerLogoSvg(req.params.slug);
    if (!svg) return reply.status(404).send({ detail: 'Provider not found' });
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });

  await app.register(adminRoutes(opts.adminToken), { prefix: '/admin/v1' });
  await app.register(async (teamScope) => {
    await teamScope.register(apiKeyAuth);
    await teamScope.register(usersRoutes);
    await teamScope.register(timeseriesRoutes);
    await teamScope.register(labAccountsRoutes);
    await teamScope.register(markersRoutes);
    await teamScope.register(labTestsRoutes);
    await teamScope.register(ordersRoutes);
    await teamScope.register(insuranceRoutes);
    await teamScope.register(orderSandboxRoutes);
    await teamScope.register(resultsRoutes);
    await teamScope.register(teamSettingsRoutes);
    await teamScope.register(biomarkersRoutes);
    await teamScope.register(appointmentsRoutes);
    await teamScope.register(pscRoutes);
    await teamScope.register(parserJobsRoutes);
    await teamScope.register(webhooksRoutes({ allowPrivateUrls: opts.webhookAllowPrivateUrls ?? false }));
  });
  return app;
}

/**
 * No health data in either process's logs. Every route of the service (from its OpenAPI document)
 * and of the BFF (from its router) is driven with marker values in client user ids, names, dates
 * of birth, phone numbers, addresses and search text, in paths, query strings and bodies,
 * including requests that fail and a database error that carries bound parameters; both
 * processes log at `trace` into memory, and no marker may appear there.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '../../server/service/app';
import { serviceSchema } from '../../server/service/db/schema';
import { syncProviderCatalogue } from '../../server/service/domain/providers';
import { createTeam } from '../../server/service/domain/teams';
import { openStore, type Store } from '../../server/store/db';
import { captureLogs } from '../support/logCapture';
import { startBff, type BffFixture } from './harness';
import { migrationsFolder } from '../service/harness';

const MARK = 'Qz7MARKERx';
const DOB = '1931-07-23';
const PHONE = '+15555550177';
const MARKERS = [MARK, DOB, '07/23/1931', PHONE, '5555550177'];
const ADMIN = 'log-test-admin-token';

/** Values of every kind of field that can hold patient data, each carrying a marker. */
const person = {
  client_user_id: `pt-${MARK}`,
  first_name: `Ada${MARK}`,
  last_name: `Love${MARK}`,
  dob: DOB,
  phone_number: PHONE,
  email: `${MARK.toLowerCase()}@example.com`,
  first_line: `12 ${MARK} Rd`,
  search_input: `${MARK}search`,
  q: MARK,
};
const body = {
  ...person,
  user_id: '00000000-0000-4000-8000-000000000000',
  patient_details: { first_name: person.first_name, last_name: person.last_name, dob: DOB, phone_number: PHONE, email: person.email, gender: 'female' },
  patient_address: { first_line: person.first_line, city: `City${MARK}`, state: 'NY', zip: '10001', country: 'US', receiver_name: person.first_name },
  notes: `notes ${MARK}`,
  name: `name ${MARK}`,
};
const query = `search_input=${MARK}&patient_name=${MARK}&q=${MARK}&filter=${encodeURIComponent(JSON.stringify({ q: MARK, user_id: MARK }))}&dob=${DOB}`;

describe('logs carry no health data', () => {
  const serviceLogs = captureLogs();
  const bffLogs = captureLogs();
  let store: Store<typeof serviceSchema>;
  let service: FastifyInstance;
  let bff: BffFixture;
  let bffApp: FastifyInstance;
  let apiKey: string;

  beforeAll(async () => {
    store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder });
    await syncProviderCatalogue(store.db);
    apiKey = (await createTeam(store.db, 'Log test team')).apiKey;
    service = await buildServiceApp({ db: store.db, adminToken: ADMIN, logger: { level: 'trace', stream: serviceLogs.stream } });
    // A database error whose query carries a marker as a bound parameter, as a real failure would.
    service.get('/test/database-error', { schema: { hide: true } }, async () => {
      await store.db.execute(sql`SELECT ${`${MARK} ${DOB} ${PHONE}`}::int`);
      return {};
    });
    await service.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.server.address() as AddressInfo;
    bff = await startBff('pglite', { serviceBaseUrl: `http://127.0.0.1:${port}`, serviceApiKey: apiKey });
    bffApp = await bff.buildApp({ logger: { level: 'trace', stream: bffLogs.stream } });
  });
  afterAll(async () => {
    await bff?.close();
    await service?.close();
    await store?.close();
  });

  /** A route's path with each parameter filled by a marker-bearing value. */
  const fill = (path: string) =>
    path.replace(/\{([^}]+)\}|:([A-Za-z_]+)\*?|\*/g, (_m, a?: string, b?: string) => encodeURIComponent((a ?? b ?? '') === 'client_user_id' ? person.client_user_id : `${MARK}-${a ?? b ?? 'x'}`));

  it('in the service: every documented route, with markers in paths, queries and bodies, and a database error', async () => {
    const doc = (await service.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const driven: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const headers = { 'x-service-api-key': apiKey, 'x-admin-token': ADMIN, 'content-type': 'application/json' };
        const hasBody = !['get', 'delete', 'head'].includes(method);
        await service.inject({ method: method.toUpperCase() as 'GET', url: `${fill(path)}?${query}`, headers, ...(hasBody ? { payload: JSON.stringify(body) } : {}) });
        driven.push(`${method} ${path}`);
      }
    }
    // Requests that succeed with patient data in them, too.
    const created = await service.inject({ method: 'POST', url: '/v2/user', headers: { 'x-service-api-key': apiKey }, payload: { client_user_id: `pt2-${MARK}` } });
    expect(created.statusCode).toBe(200);
    expect((await service.inject({ method: 'GET', url: `/v2/user/resolve/${person.client_user_id}`, headers: { 'x-service-api-key': apiKey } })).statusCode).toBe(200);
    expect((await service.inject({ method: 'GET', url: `/v3/orders?search_input=${MARK}`, headers: { 'x-service-api-key': apiKey } })).statusCode).toBe(200);
    expect((await service.inject({ method: 'GET', url: '/test/database-error' })).statusCode).toBe(500);

    expect(driven.length).toBeGreaterThan(40);
    const log = serviceLogs.text();
    expect(log).toContain('"route":"/v2/user/resolve/:client_user_id"'); // requests are logged, by their pattern...
    expect(log).toContain('22P02'); // ...and the database error, by its code...
    for (const marker of MARKERS) expect(log, marker).not.toContain(marker); // ...without a single value
  });

  it('in the BFF: every route of its router, signed in, with markers in paths, filters and bodies', async () => {
    const session = await bff.login('admin', bffApp);
    const routes = routesOf(bffApp);
    // Signing out ends the session the sweep uses: last.
    const apiRoutes = routes.filter((r) => r.path.startsWith('/api/')).sort((a, b) => Number(a.path === '/api/auth/logout') - Number(b.path === '/api/auth/logout'));
    expect(apiRoutes.length).toBeGreaterThan(30);
    for (const route of apiRoutes) {
      await bff.request({ method: route.method as 'GET', url: `${fill(route.path)}?${query}`, session, app: bffApp, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: body }) });
    }
    // The users list searched for a patient, as the dashboard does.
    await bff.request({ method: 'GET', url: `/api/users?filter=${encodeURIComponent(JSON.stringify({ q: MARK }))}`, session, app: bffApp });

    const log = bffLogs.text();
    expect(log).toMatch(/"route":"\/api\/users\/?"/); // requests are logged, by their pattern
    for (const marker of MARKERS) expect(log, marker).not.toContain(marker);
  });
});

/** Every method and full path of an app, from Fastify's printed route tree (indentation is nesting). */
function routesOf(app: FastifyInstance): { method: string; path: string }[] {
  const stack: string[] = [];
  const out = new Map<string, { method: string; path: string }>();
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+) \(([A-Z, ]+)\)/.exec(line);
    if (!m) continue;
    stack.length = m[1]!.length / 4;
    stack.push(m[2]!);
    const path = stack.join('');
    for (const method of m[3]!.split(', ')) if (method !== 'HEAD') out.set(`${method} ${path}`, { method, path });
  }
  return [...out.values()];
}

/**
 * Every route of the BFF against every role, over HTTP: a role the matrix (server/bff/api/roles.ts)
 * does not allow is refused with 403 before anything is read or changed; an allowed role gets
 * past the check (its answer may still be a 4xx for the placeholder ids and empty bodies used
 * here, never a 403). A route added without a permission fails the first test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionTable } from '../../server/bff/docs/permissionTable';
import { can, ROLES } from '../../server/bff/api/roles';
import type { RouteAccess } from '../../server/bff/app';
import { STAFF_ROLES, startBff, startService, UNKNOWN_UUID, type BffFixture, type ServiceFixture, type Session, type StaffKey } from './harness';

/** Routes any signed-in member may use (their own session) and the sign-in itself. */
const OPEN_ROUTES = new Set([
  'POST /api/auth/login', 'GET /api/auth/me', 'POST /api/auth/logout', 'POST /api/auth/mfa', 'POST /api/auth/mfa/confirm',
  // Counts only; each queue inside is checked against its own permission (test/bff/overview.test.ts).
  'GET /api/overview',
]);

let service: ServiceFixture;
let bff: BffFixture;
const sessions = {} as Record<StaffKey, Session>;
beforeAll(async () => {
  service = await startService();
  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  for (const who of Object.keys(STAFF_ROLES) as StaffKey[]) sessions[who] = await bff.login(who);
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

const routes = (): RouteAccess[] => bff.app.routeAccess;
const urlOf = (route: RouteAccess) =>
  route.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => (name === 'id' && route.url.startsWith('/api/role-policies') ? 'reviewer' : UNKNOWN_UUID));

describe('the role matrix on every route', () => {
  it('every route but sign-in and the session’s own checks a permission', () => {
    expect(routes().length).toBeGreaterThan(40);
    const unchecked = routes()
      .filter((r) => r.permission === null)
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !OPEN_ROUTES.has(r));
    expect(unchecked).toEqual([]);
  });

  it.each(ROLES.map((role) => [role]))('%s: allowed routes pass the check, every other route answers 403', async (role) => {
    const who = (Object.keys(STAFF_ROLES) as StaffKey[]).find((k) => STAFF_ROLES[k] === role)!;
    const wrong: string[] = [];
    for (const route of routes().filter((r) => r.permission)) {
      const r = await bff.request({ method: route.method as 'GET', url: urlOf(route), session: sessions[who], ...(route.method !== 'GET' && route.method !== 'DELETE' && { payload: {} }) });
      const allowed = can(role, route.permission!);
      if (allowed ? r.status === 403 || r.status === 401 : r.status !== 403) wrong.push(`${route.method} ${route.url} (${route.permission}) → ${r.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a role from a newer version is allowed nothing', async () => {
    const answers = await Promise.all(routes().filter((r) => r.permission).map((route) => bff.request({ method: route.method as 'GET', url: urlOf(route), session: sessions.unknown })));
    expect(answers.map((a) => a.status).filter((s) => s !== 403)).toEqual([]);
  });

  it('without a session every route but sign-in answers 401', async () => {
    const answers = await Promise.all(
      routes()
        .filter((r) => r.url !== '/api/auth/login')
        .map(async (route) => ({ route: `${route.method} ${route.url}`, status: (await bff.request({ method: route.method as 'GET', url: urlOf(route) })).status })),
    );
    expect(answers.filter((a) => a.status !== 401)).toEqual([]);
  });
});

describe('docs/permissions.md', () => {
  it('is the table generated from the role matrix and the routes (run `npm run docs:permissions` after changing either)', () => {
    const onDisk = fs.readFileSync(path.resolve('docs/permissions.md'), 'utf8');
    expect(onDisk).toBe(permissionTable(bff.app.routeAccess));
  });
});

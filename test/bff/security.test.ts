/**
 * Security headers on the dashboard's routes, and logs without cookies, CSRF tokens, passwords,
 * the service API key or health values.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffLoggerRedact } from '../../server/bff/app';
import { PASSWORD, startBff, startService, type BffFixture, type ServiceFixture } from './harness';
import { captureLogs } from '../support/logCapture';

let service: ServiceFixture;
let bff: BffFixture;
let staticDir: string;
let userId: string;

beforeAll(async () => {
  service = await startService();
  [userId] = (await service.addUsers(service.team, [{ clientUserId: 'pt-secure', fallbackTimeZone: 'UTC', sources: ['oura'] }])) as [string];
  await service.addPoints(userId, [{ provider: 'oura', start: '2026-05-02T08:00:00Z', minutes: 47.31, offset: 0 }]);
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bff-dist-'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>');
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log("app")');
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js.map'), '{"version":3,"sources":["../src/App.tsx"]}');
  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey, app: { staticDir } });
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
  if (staticDir) fs.rmSync(staticDir, { recursive: true, force: true });
});

/** The CSP's directives as a map. */
function csp(header: unknown): Map<string, string> {
  expect(typeof header, 'content-security-policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values.join(' ')] as const;
      }),
  );
}

describe('security headers', () => {
  it.each(['/', '/users', '/users/123/show', '/login'])('serves the app shell at %s with a strict CSP', async (url) => {
    const r = await bff.get(url);
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toMatch(/text\/html/);
    const policy = csp(r.headers['content-security-policy']);
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.get('connect-src')).toBe("'self'");
    // Scripts only from the BFF's own origin: no inline or eval'd script, no outside host.
    const scripts = policy.get('script-src') ?? policy.get('default-src')!;
    expect(scripts).toBe("'self'");
    expect(String(r.headers['content-security-policy'])).not.toMatch(/unsafe-eval|https?:\/\//);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves built assets with the same headers, and a missing asset or API route as a JSON 404, never the app shell', async () => {
    const asset = await bff.get('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-security-policy']).toBeDefined();
    for (const url of ['/assets/missing.js', '/favicon.png']) {
      const r = await bff.get(url);
      expect(r.status, url).toBe(404);
      expect(String(r.headers['content-type'])).toMatch(/json/);
    }
    const session = await bff.login('admin');
    const api = await bff.get('/api/no-such-resource', session);
    expect(api.status).toBe(404);
    expect(String(api.headers['content-type'])).toMatch(/json/);
  });

  it('sends the CSP on API answers too', async () => {
    const r = await bff.get('/api/auth/me');
    expect(r.status).toBe(401);
    expect(csp(r.headers['content-security-policy']).get('default-src')).toBe("'self'");
  });
});

describe('caching and source maps', () => {
  it('answers with patient data are never cached; the dashboard\'s own files may be', async () => {
    const session = await bff.login('coordinator');
    for (const url of ['/api/auth/me', '/api/users', `/api/users/${userId}`, `/api/users/${userId}/mindfulness-minutes?start_date=2026-05-01&end_date=2026-05-07`]) {
      const r = await bff.get(url, session);
      expect(r.status, url).toBe(200);
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
    expect((await bff.get('/api/users', undefined)).headers['cache-control']).toBe('no-cache'); // a 401 says only "sign in"
    const asset = await bff.request({ method: 'GET', url: '/assets/app.js' });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).not.toBe('no-store');
  });

  it('serves no source map, even one left in the build folder, and builds none', async () => {
    expect((await bff.request({ method: 'GET', url: '/assets/app.js.map' })).status).toBe(404);
    const viteConfig = (await import('../../vite.config')).default as { build?: { sourcemap?: unknown } };
    expect(viteConfig.build?.sourcemap).toBe(false);
  });
});

describe('logs', () => {
  it('carry no cookie, CSRF token, password, API key or health value', async () => {
    const { lines, stream } = captureLogs();
    const app: FastifyInstance = await bff.buildApp({ logger: { level: 'debug', redact: bffLoggerRedact, stream } });
    const session = await bff.login('coordinator', app);
    const calls = [
      '/api/auth/me',
      '/api/users',
      `/api/users/${userId}`,
      `/api/users/${userId}/mindfulness-minutes?start_date=2026-05-01&end_date=2026-05-07`,
    ];
    for (const url of calls) expect((await bff.get(url, session, app)).status, url).toBe(200);
    // Failures are logged too: a wrong password, a wrong CSRF token, then a real logout.
    await bff.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'coordinator@labdesk.test', password: 'wrong-Secret-99' }, app });
    await bff.request({ method: 'POST', url: '/api/auth/logout', session, csrf: 'forged-csrf-token-xyz', app });
    expect((await bff.request({ method: 'POST', url: '/api/auth/logout', session, app })).status).toBe(204);
    await app.close();

    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).toContain('/api/users'); // requests are logged...
    const token = session.value.slice(0, session.value.lastIndexOf('.'));
    // ...but not what identifies or authenticates anyone, nor health data.
    for (const secret of [session.value, token, session.csrfToken, 'forged-csrf-token-xyz', PASSWORD, 'wrong-Secret-99', service.team.apiKey, '47.31']) {
      expect(log, secret).not.toContain(secret);
    }
  });

  it('redact the cookie, the CSRF header and Set-Cookie even when request and reply headers are logged', async () => {
    const { lines, stream } = captureLogs();
    const app: FastifyInstance = await bff.buildApp({
      logger: {
        level: 'info',
        redact: bffLoggerRedact,
        stream,
        serializers: {
          req: (req: { method: string; url: string; headers: Record<string, unknown> }) => ({ method: req.method, url: req.url, headers: req.headers }),
          res: (res: { statusCode: number; getHeaders?: () => Record<string, unknown> }) => ({ statusCode: res.statusCode, headers: res.getHeaders?.() }),
        },
      },
    });
    const session = await bff.login('coordinator', app);
    expect((await bff.get('/api/auth/me', session, app)).status).toBe(200);
    expect((await bff.request({ method: 'POST', url: '/api/auth/logout', session, app })).status).toBe(204);
    await app.close();

    const log = lines.join('');
    expect(log).toContain('"headers"'); // headers were logged...
    expect(log).toContain('[Redacted]');
    const token = session.value.slice(0, session.value.lastIndexOf('.'));
    for (const secret of [token, session.csrfToken]) expect(log, secret).not.toContain(secret); // ...without the secrets
  });
});

/**
 * The dashboard's files as the BFF sends them: compressed at build time (scripts/precompress.ts)
 * and chosen by Accept-Encoding, hashed assets cached for a year, the app shell revalidated, and
 * the security headers on all of them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticCacheControl } from '../../server/bff/app';
import { precompressDir } from '../../scripts/precompress';
import { SIGNED_IN_END, SIGNED_IN_START } from '../../server/bff/shellMarkers';
import { closedPortUrl, startBff, type BffFixture } from './harness';

const IMMUTABLE = 'public, max-age=31536000, immutable';
// Big enough to be worth compressing (the build step skips files under 1 KB).
const APP_JS = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{id:${i},name:"patient-${i}"}`).join(',')}];\n`;
const TINY_JS = 'export const tiny = 1;\n';
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">${'<rect width="1" height="1"/>'.repeat(60)}</svg>`;

// As the build writes it: the views' shared file preloaded only for a signed-in member (scripts/preloadChunks.ts).
const VIEWS_PRELOAD = '<link rel="modulepreload" crossorigin href="/assets/views-common-Q1w2E3.js">';
const SHELL = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script>
  ${SIGNED_IN_START}
    ${VIEWS_PRELOAD}
    ${SIGNED_IN_END}
  </head><body><div id="root"></div></body></html>`;

let bff: BffFixture;
let staticDir: string;

beforeAll(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bff-static-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), SHELL);
  fs.writeFileSync(path.join(staticDir, 'assets', 'index-AbC123.js'), APP_JS);
  fs.writeFileSync(path.join(staticDir, 'assets', 'tiny-XyZ789.js'), TINY_JS);
  fs.writeFileSync(path.join(staticDir, 'favicon.svg'), FAVICON);
  await precompressDir(staticDir);
  // Nothing here talks to the service.
  bff = await startBff('pglite', { serviceBaseUrl: await closedPortUrl(), serviceApiKey: 'unused', app: { staticDir } });
});
afterAll(async () => {
  await bff?.close();
  if (staticDir) fs.rmSync(staticDir, { recursive: true, force: true });
});

const fetchAsset = (url: string, acceptEncoding?: string) =>
  bff.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

const varyOf = (headers: Record<string, unknown>) => String(headers.vary ?? '').toLowerCase();

describe('build step', () => {
  it('writes a .br and a .gz beside each text file of 1 KB or more, and none beside smaller ones', () => {
    const assets = fs.readdirSync(path.join(staticDir, 'assets')).sort();
    expect(assets).toEqual(['index-AbC123.js', 'index-AbC123.js.br', 'index-AbC123.js.gz', 'tiny-XyZ789.js']);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(staticDir, 'assets', 'index-AbC123.js.br'))).toString()).toBe(APP_JS);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(staticDir, 'assets', 'index-AbC123.js.gz'))).toString()).toBe(APP_JS);
    expect(fs.existsSync(path.join(staticDir, 'favicon.svg.br'))).toBe(true);
  });
});

describe('content encoding', () => {
  it('sends brotli to a browser that takes it (Chromium sends gzip, deflate, br, zstd)', async () => {
    const r = await fetchAsset('/assets/index-AbC123.js', 'gzip, deflate, br, zstd');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(String(r.headers['content-type'])).toMatch(/javascript/);
    expect(varyOf(r.headers)).toContain('accept-encoding');
    expect(Number(r.headers['content-length'])).toBe(r.rawPayload.length);
    expect(r.rawPayload.length).toBeLessThan(APP_JS.length / 3);
    expect(zlib.brotliDecompressSync(r.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends gzip to a client that takes only gzip', async () => {
    const r = await fetchAsset('/assets/index-AbC123.js', 'gzip');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(String(r.headers['content-type'])).toMatch(/javascript/);
    expect(varyOf(r.headers)).toContain('accept-encoding');
    expect(zlib.gunzipSync(r.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the file itself to a client that accepts no encoding, still saying it varies', async () => {
    for (const accept of [undefined, 'identity', 'deflate']) {
      const r = await fetchAsset('/assets/index-AbC123.js', accept);
      expect(r.statusCode, String(accept)).toBe(200);
      expect(r.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(r.body, String(accept)).toBe(APP_JS);
      expect(varyOf(r.headers), String(accept)).toContain('accept-encoding');
      expect(r.headers['cache-control'], String(accept)).toBe(IMMUTABLE);
    }
  });

  it('sends a file too small to compress as it is, to any client', async () => {
    const r = await fetchAsset('/assets/tiny-XyZ789.js', 'gzip, br');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body).toBe(TINY_JS);
  });

  it('does not serve the compressed copies under their own names', async () => {
    for (const url of ['/assets/index-AbC123.js.br', '/assets/index-AbC123.js.gz']) {
      const r = await fetchAsset(url, 'gzip, br');
      expect(r.statusCode, url).toBe(404);
      expect(String(r.headers['content-type']), url).toMatch(/json/);
    }
  });
});

describe('the app shell', () => {
  it('preloads the views a signed-in member is about to open, and leaves them out on the way to the sign-in page', async () => {
    for (const url of ['/', '/users', '/users/123/show']) {
      const signedOut = await bff.app.inject({ method: 'GET', url });
      expect(signedOut.statusCode, url).toBe(200);
      expect(signedOut.body, url).toContain('/assets/index-AbC123.js');
      expect(signedOut.body, url).not.toContain('views-common');
      expect(signedOut.body, url).not.toContain('labdesk:signed-in');
      expect(String(signedOut.headers.vary).toLowerCase(), url).toContain('cookie');

      const signedIn = await bff.app.inject({ method: 'GET', url, headers: { cookie: 'labdesk_session=whatever-it-holds' } });
      expect(signedIn.statusCode, url).toBe(200);
      expect(signedIn.body, url).toContain(VIEWS_PRELOAD);
      expect(signedIn.body, url).not.toContain('labdesk:signed-in');
      expect(String(signedIn.headers.vary).toLowerCase(), url).toContain('cookie');
    }
  });

  it('takes the secure cookie name as a session too', async () => {
    const r = await bff.app.inject({ method: 'GET', url: '/', headers: { cookie: '__Host-labdesk_session=x' } });
    expect(r.body).toContain(VIEWS_PRELOAD);
  });
});

describe('caching', () => {
  it('lets browsers keep hashed assets for a year, whatever the encoding', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const r = await fetchAsset('/assets/index-AbC123.js', accept);
      expect(r.headers['cache-control'], accept).toBe(IMMUTABLE);
    }
    expect((await fetchAsset('/assets/tiny-XyZ789.js')).headers['cache-control']).toBe(IMMUTABLE);
  });

  it('revalidates the app shell (it names the hashes) and files outside assets/', async () => {
    for (const url of ['/', '/users', '/users/123/show']) {
      const r = await fetchAsset(url, 'gzip, br');
      expect(r.statusCode, url).toBe(200);
      expect(String(r.headers['content-type']), url).toMatch(/text\/html/);
      expect(r.headers['cache-control'], url).toBe('no-cache');
    }
    const icon = await fetchAsset('/favicon.svg', 'br');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-encoding']).toBe('br');
    expect(String(icon.headers['content-type'])).toMatch(/svg/);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a revalidation of an unchanged file with 304', async () => {
    const first = await fetchAsset('/favicon.svg', 'br');
    const etag = String(first.headers.etag);
    const again = await bff.app.inject({ method: 'GET', url: '/favicon.svg', headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
  });

  it('decides by the path under the build folder', () => {
    expect(staticCacheControl('/srv/dist', '/srv/dist/assets/index-AbC123.js')).toBe(IMMUTABLE);
    expect(staticCacheControl('/srv/dist', '/srv/dist/assets/index-AbC123.js.br')).toBe(IMMUTABLE);
    expect(staticCacheControl('/srv/dist', '/srv/dist/favicon.svg')).toBe('no-cache');
    expect(staticCacheControl('/srv/dist', '/srv/dist/assets.js')).toBe('no-cache');
  });
});

describe('security headers', () => {
  it('keeps the CSP and the other helmet headers on compressed and uncompressed files', async () => {
    for (const [url, accept] of [
      ['/assets/index-AbC123.js', 'br'],
      ['/assets/index-AbC123.js', 'gzip'],
      ['/assets/index-AbC123.js', undefined],
      ['/', 'br'],
    ] as const) {
      const r = await fetchAsset(url, accept);
      expect(String(r.headers['content-security-policy']), `${url} ${String(accept)}`).toContain("default-src 'self'");
      expect(r.headers['x-content-type-options'], `${url} ${String(accept)}`).toBe('nosniff');
      expect(r.headers['referrer-policy'], `${url} ${String(accept)}`).toBe('no-referrer');
    }
  });
});

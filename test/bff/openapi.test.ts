/**
 * The BFF's own OpenAPI document: generated from the contract its routes register
 * (server/bff/api/), served to signed-in staff only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type BffFixture, type Session } from './harness';

interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  responses?: Record<string, unknown>;
}
interface Document {
  openapi: string;
  servers?: unknown[];
  paths: Record<string, Record<string, Operation>>;
}

let bff: BffFixture;
let admin: Session;
let doc: Document;

beforeAll(async () => {
  // No upstream call is made: the document is the BFF's own.
  bff = await startBff('pglite', { serviceBaseUrl: 'http://127.0.0.1:9', serviceApiKey: 'unused' });
  admin = await bff.login('admin');
  const r = await bff.get<Document>('/api/openapi.json', admin);
  expect(r.status).toBe(200);
  doc = r.body;
});
afterAll(async () => {
  await bff?.close();
});

const operations = () => Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

describe('the BFF’s OpenAPI document', () => {
  it('is served to signed-in staff only', async () => {
    expect((await bff.request({ method: 'GET', url: '/api/openapi.json' })).status).toBe(401);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toHaveLength(1);
  });

  it('names every operation, once, and documents every resource the dashboard uses', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['listUsers', 'getUser', 'listOrders', 'createOrder', 'cancelOrder', 'listAppointments', 'bookAppointment', 'listParserJobs', 'reviewParserJob', 'uploadLabReport', 'listWebhookEndpoints', 'listAuditEvents', 'signIn']) {
      expect(ids).toContain(id);
    }
  });

  it('documents list parameters and the error shape', () => {
    const list = doc.paths['/api/orders/']?.get ?? doc.paths['/api/orders']?.get;
    expect(list?.parameters?.map((p) => p.name).sort()).toEqual(['filter', 'range', 'sort']);
    for (const { op } of operations()) {
      const errors = Object.keys(op.responses ?? {}).filter((code) => code.startsWith('4'));
      expect(errors.length, op.operationId).toBeGreaterThan(0);
    }
  });
});

describe('the BFF’s OpenAPI document, linted', () => {
  it('passes Redocly’s recommended rules', async () => {
    const { lintOpenApi } = await import('../support/openapiLint');
    expect(await lintOpenApi(doc)).toEqual([]);
  });
});

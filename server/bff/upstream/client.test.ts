/**
 * The service client's one request path, against a stand-in deployment over real HTTP: how
 * queries go out, how every kind of failure comes back, and that a path value can never climb.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, path } from './client';
import { toBffError, UpstreamError } from './errors';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
const seen: string[] = [];
let server: http.Server;
let client: ServiceClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new ServiceClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, apiKey: 'k', timeoutMs: 300 });
});
afterEach(() => {
  seen.length = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const json = (status: number, body: unknown): Handler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const failure = async (call: Promise<unknown>) => {
  const err = await call.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
};

describe('the service client', () => {
  it('sends arrays as repeated keys and leaves out empty values', async () => {
    handler = json(200, { orders: [], total: 0, page: 1, size: 10 });
    await client.listOrders({ status: ['lost', 'sample_error'], order_type: [], user_id: undefined, search_input: '', page: 2, size: 10 });
    expect(seen).toEqual(['GET /v3/orders?status=lost&status=sample_error&page=2&size=10']);
  });

  it('encodes path values and refuses ones that could climb to another endpoint, without a call', async () => {
    expect(path`/v2/user/${'a b/c'}`).toBe('/v2/user/a%20b%2Fc');
    for (const id of ['..', '.', '']) {
      expect((await failure(client.getUser(id))).status).toBe(404);
    }
    expect(seen).toEqual([]);
  });

  it('maps a 422 detail onto the form’s fields', async () => {
    handler = json(422, { detail: [{ loc: ['body', 'patient_address', 'zip'], msg: 'must be five digits', type: 'value_error' }] });
    const err = await failure(client.cancelOrder('0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c'));
    expect(toBffError(err)).toMatchObject({ statusCode: 422, errors: { 'patient_address.zip': 'must be five digits' } });
  });

  it('reads a 5xx that is not JSON (a proxy’s page) as one failure', async () => {
    handler = (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html>upstream unavailable</html>');
    };
    const err = await failure(client.listLabs());
    expect(err).toMatchObject({ status: 503, detail: '<html>upstream unavailable</html>', operation: 'list labs' });
    expect(toBffError(err).statusCode).toBe(502);
  });

  it('reports an answer that is not JSON, or not of the contract’s shape, as 502', async () => {
    handler = (_req, res) => res.end('not json');
    expect((await failure(client.listLabs())).status).toBe(502);
    handler = json(200, [{ id: 'not a lab' }]);
    expect((await failure(client.listLabs())).status).toBe(502);
  });

  it('gives up after its time limit with a 504', async () => {
    handler = () => {}; // never answers
    const err = await failure(client.listLabs());
    expect(err.status).toBe(504);
    expect(toBffError(err).statusCode).toBe(504);
  });

  it('sends a read once more when the service closed its kept-alive connection as it was reused, but never a write', async () => {
    // The race a busy machine makes: the server ends an idle connection just as the client sends
    // on it. Here the server cuts the connection the next request arrives on.
    let cutNext = true;
    handler = (req, res) => {
      if (cutNext) {
        cutNext = false;
        req.socket.destroy();
        return;
      }
      json(200, { orders: [], total: 0, page: 1, size: 10 })(req, res);
    };
    await client.listOrders({ page: 1, size: 10 });
    expect(seen).toEqual(['GET /v3/orders?page=1&size=10', 'GET /v3/orders?page=1&size=10']);

    seen.length = 0;
    cutNext = true;
    const err = await failure(client.cancelOrder('0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c'));
    expect(err.status).toBe(0);
    expect(toBffError(err).statusCode).toBe(502);
    expect(seen).toHaveLength(1);
  });
});

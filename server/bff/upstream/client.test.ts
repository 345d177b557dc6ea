/**
 * The service client's one request path, against a stand-in deployment over real HTTP: how
 * queries go out, how every kind of failure comes back, and that a path value can never climb.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, path } from './client';
import { toBffError, UpstreamError } from './errors';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
const seen: string[] = [];
/** The connections the requests of a test came on, in order of first use. */
const sockets: Socket[] = [];
let server: http.Server;
let baseUrl: string;
let client: ServiceClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!sockets.includes(req.socket)) sockets.push(req.socket);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  client = new ServiceClient({ baseUrl, apiKey: 'k', timeoutMs: 300 });
});
afterEach(() => {
  seen.length = 0;
  sockets.length = 0;
});
afterAll(async () => {
  client.close();
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

  it('reuses its connections: calls one after another go on one kept-alive connection', async () => {
    handler = json(200, []);
    for (let i = 0; i < 5; i++) await client.listLabs();
    expect(seen).toHaveLength(5);
    expect(sockets).toHaveLength(1);
  });

  it('opens no more connections than its bound: further calls wait for one', async () => {
    const bounded = new ServiceClient({ baseUrl, apiKey: 'k', timeoutMs: 5_000, maxSockets: 2 });
    // Answers are held until all calls have been sent, so every call wants a connection at once.
    const held: (() => void)[] = [];
    handler = (req, res) => {
      held.push(() => json(200, [])(req, res));
      if (held.length === 2) for (const answer of held.splice(0)) answer();
    };
    try {
      await Promise.all(Array.from({ length: 10 }, () => bounded.listLabs()));
    } finally {
      bounded.close();
    }
    expect(seen).toHaveLength(10);
    expect(sockets).toHaveLength(2);
  });

  it('works with a service that closes every connection after its answer', async () => {
    handler = (req, res) => {
      res.setHeader('connection', 'close');
      json(200, [])(req, res);
    };
    for (let i = 0; i < 3; i++) await client.listLabs();
    expect(seen).toHaveLength(3);
    expect(sockets).toHaveLength(3);
  });

  it('gives up on an answer that stalls after its headers with a 504, as on one that never starts', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":'); // and nothing more
    };
    const err = await failure(client.listLabs());
    expect(err).toMatchObject({ status: 504, reason: 'TimeoutError' });
  });

  it('refuses an answer larger than its limit (declared or streamed) as 502, without reading it all', async () => {
    const small = new ServiceClient({ baseUrl, apiKey: 'k', timeoutMs: 5_000, maxAnswerBytes: 1024 });
    const big = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ slug: `lab-${i}`, name: 'A lab with a long name' })));
    try {
      handler = json(200, JSON.parse(big));
      expect(await failure(small.listLabs())).toMatchObject({ status: 502, detail: 'an answer larger than 1024 bytes for list labs' });
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length declared
        for (let i = 0; i < big.length; i += 256) res.write(big.slice(i, i + 256));
        res.end();
      };
      const err = await failure(small.listLabs());
      expect(err.status).toBe(502);
      expect(err.detail).toBe('an answer larger than 1024 bytes for list labs');
    } finally {
      small.close();
    }
  });

  it('follows a read’s redirect within the service, never one to another host (which would get the API key)', async () => {
    handler = (req, res) => {
      if (req.url?.startsWith('/v2/user?')) {
        res.writeHead(307, { location: req.url.replace('/v2/user?', '/v2/user/?') });
        res.end();
        return;
      }
      json(200, { users: [], total: 0, offset: 0, limit: 5 })(req, res);
    };
    const fresh = new ServiceClient({ baseUrl, apiKey: 'k', timeoutMs: 5_000 });
    try {
      expect(await fresh.listUsers(0, 5)).toMatchObject({ total: 0 });
    } finally {
      fresh.close();
    }
    expect(seen).toEqual(['GET /v2/user?offset=0&limit=5', 'GET /v2/user/?offset=0&limit=5']);

    const elsewhere: string[] = [];
    const other = http.createServer((req, res) => {
      elsewhere.push(String(req.headers['x-service-api-key']));
      res.end('[]');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      handler = (_req, res) => {
        res.writeHead(302, { location: `http://127.0.0.1:${(other.address() as AddressInfo).port}/v3/lab_tests/labs` });
        res.end();
      };
      const err = await failure(client.listLabs());
      expect(err.status).toBe(302);
      expect(toBffError(err).statusCode).toBe(502);
      expect(elsewhere).toEqual([]);
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

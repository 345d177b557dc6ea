/**
 * A proxy in front of the service that forwards every call except those whose path starts with one
 * of `failing`: those answer `status` (a 503 by default), as a service with one broken endpoint would.
 * `failing` is read on every call, so a test can empty it to let the service "recover".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FailingProxy {
  url: string;
  /** Paths (and queries) of the calls it made fail. */
  failed: string[];
  close(): Promise<void>;
}

const HOP_HEADERS = ['host', 'content-length', 'connection'];
const RESPONSE_HEADERS_DROPPED = ['content-encoding', 'content-length', 'transfer-encoding'];

export async function startFailingProxy(target: string, failing: string[], status = 503): Promise<FailingProxy> {
  const failed: string[] = [];
  const server = http.createServer(async (req, res) => {
    const url = req.url ?? '/';
    if (failing.some((prefix) => url.startsWith(prefix))) {
      failed.push(url);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'temporarily unavailable' }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_HEADERS.includes(k))) as Record<string, string>;
    const answer = await fetch(target + url, { method: req.method, headers, body: body.length ? body : undefined });
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !RESPONSE_HEADERS_DROPPED.includes(k))));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

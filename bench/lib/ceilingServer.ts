/**
 * The ceiling: a bare node:http server answering every request with the same pre-serialised 2 KB
 * JSON body. What the machine's HTTP stack and loopback can do with no framework, store or
 * validation; every other figure of `npm run bench` is read as a fraction of it. `/bytes/N`
 * answers a fixed JSON body of N bytes instead: the ceiling for an endpoint whose answers are that
 * large (an order page is ~100 KB), where writing the bytes is most of the work. Started by
 * bench/run.ts in a process of its own; prints its port on stdout.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const item = { user_id: '00000000-0000-4000-8000-000000000000', client_user_id: 'patient-0000', created_on: '2026-01-01T00:00:00+00:00' };
const users: (typeof item)[] = [];
while (JSON.stringify({ users }).length < 2048 - 140) users.push(item);
const body = Buffer.from(JSON.stringify({ users, total: users.length, offset: 0, limit: users.length }));

const MAX_BYTES = 4 * 1024 * 1024;
const bodiesBySize = new Map<number, Buffer>();
/** A JSON body of exactly `bytes` bytes (at least the 2 KB one's structure), made once per size. */
function bodyOf(bytes: number): Buffer {
  let sized = bodiesBySize.get(bytes);
  if (!sized) {
    const filler = 'x'.repeat(Math.max(0, bytes - body.length - 9));
    sized = Buffer.from(`${body.subarray(0, body.length - 1).toString()},"pad":"${filler}"}`);
    bodiesBySize.set(bytes, sized);
  }
  return sized;
}

const server = http.createServer((req, res) => {
  const asked = /^\/bytes\/(\d{1,8})$/.exec(req.url ?? '')?.[1];
  const answer = asked && Number(asked) > body.length && Number(asked) <= MAX_BYTES ? bodyOf(Number(asked)) : body;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
  res.end(answer);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, bytes: body.length })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

/**
 * The ceiling: a bare node:http server answering every request with the same pre-serialised 2 KB
 * JSON body. What the machine's HTTP stack and loopback can do with no framework, store or
 * validation; every other figure of `npm run bench` is read as a fraction of it. Started by
 * bench/lib/stack.ts in a process of its own; prints its port on stdout.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const item = { user_id: '00000000-0000-4000-8000-000000000000', client_user_id: 'patient-0000', created_on: '2026-01-01T00:00:00+00:00' };
const users: (typeof item)[] = [];
while (JSON.stringify({ users }).length < 2048 - 140) users.push(item);
const body = Buffer.from(JSON.stringify({ users, total: users.length, offset: 0, limit: users.length }));

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, bytes: body.length })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

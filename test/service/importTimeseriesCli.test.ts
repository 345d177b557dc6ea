/**
 * `npm run import:timeseries` against a real service: the service's bundle started on plain Node
 * (as `npm start` runs it) on a free port with a fresh data directory, the CLI as a user runs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOf } from '../../server/build';
import { repoPath } from '../../server/lib/entries';
import { freePort } from '../e2e/app';
import { flatten, groupedUrl } from './harness';

const ADMIN = 'cli-test-admin-token-123';
let service: ChildProcess;
let baseUrl: string;
let apiKey: string;
let users: string[];
let dir: string;
let output = '';

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = { 'x-service-api-key': apiKey }) {
  const res = await fetch(`${baseUrl}${url}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function runCli(file: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/importTimeseries.ts', file], {
    cwd: repoPath(),
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SERVICE_BASE_URL: baseUrl, SERVICE_API_KEY: apiKey, ...env },
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

async function countPoints(userId: string) {
  let n = 0;
  let cursor: string | null = null;
  do {
    const r = await call('GET', groupedUrl(userId, { start_date: '2020-01-01', next_cursor: cursor ?? undefined }));
    expect(r.status).toBe(200);
    n += flatten(r.body as never).length;
    cursor = r.body.next_cursor as string | null;
  } while (cursor);
  return n;
}

const csvRow = (user: string, i: number) => {
  const start = new Date(Date.UTC(2025, 0, 1, 6) + i * 3_600_000);
  return `${user},oura,device,${start.toISOString()},${new Date(start.getTime() + 600_000).toISOString()},10,${i % 2 ? 3600 : ''}`;
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-import-cli-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  service = spawn(process.execPath, [bundleOf('service')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SERVICE_PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), SERVICE_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  service.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 80_000;
  for (;;) {
    if (service.exitCode !== null) throw new Error(`the service exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the service did not come up:\n${output}`);
    const up = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const team = await call('POST', '/admin/v1/teams', { name: 'CLI team' }, { 'x-admin-token': ADMIN });
  expect(team.status, JSON.stringify(team.body)).toBe(201);
  apiKey = team.body.api_key as string;
  users = [];
  for (const id of ['cli-one', 'cli-two']) {
    const u = await call('POST', '/v2/user', { client_user_id: id });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    users.push(u.body.user_id as string);
  }
});

afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run import:timeseries', () => {
  it('imports a CSV file in several batches, prints rows and rows/s; a second run stores nothing more', async () => {
    const file = path.join(dir, 'sessions.csv');
    const lines = ['user_id,provider,source_type,start,end,value,timezone_offset'];
    for (let i = 0; i < 6000; i++) lines.push(csvRow(users[i % 2]!, i));
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const first = runCli(file, { IMPORT_BATCH: '2500' });
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/imported 6000 of 6000 rows \(0 already stored\) in [\d.]+ s: \d+ rows\/s/);
    expect(await countPoints(users[0]!)).toBe(3000);
    expect(await countPoints(users[1]!)).toBe(3000);
    const again = runCli(file);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/imported 0 of 6000 rows \(6000 already stored\)/);
  }, 120_000);

  it('imports a JSON array and JSON Lines', async () => {
    const points = [0, 1, 2].map((i) => ({ user_id: users[0], provider: 'garmin', start: `2026-02-0${i + 1}T07:00:00+01:00`, end: `2026-02-0${i + 1}T07:20:00+01:00`, value: 20, timezone_offset: 3600 }));
    const array = path.join(dir, 'points.json');
    fs.writeFileSync(array, JSON.stringify(points, null, 2));
    expect(runCli(array).out).toMatch(/imported 3 of 3 rows/);
    const jsonl = path.join(dir, 'points.jsonl');
    fs.writeFileSync(jsonl, points.map((p) => JSON.stringify({ ...p, provider: 'whoop' })).join('\n'));
    expect(runCli(jsonl).out).toMatch(/imported 3 of 3 rows/);
    expect(await countPoints(users[0]!)).toBe(3006);
  });

  it('names the line of a bad row and imports nothing of the file', async () => {
    const file = path.join(dir, 'bad.csv');
    const lines = ['user_id,provider,start,end,value'];
    for (let i = 0; i < 10; i++) lines.push(csvRow(users[1]!, 10_000 + i).split(',').filter((_, k) => k !== 2 && k !== 6).join(','));
    lines[7] = lines[7]!.replace(/,10$/, ',ten');
    fs.writeFileSync(file, lines.join('\n'));
    const r = runCli(file);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/line 8: value: /);
    expect(await countPoints(users[1]!)).toBe(3000);

    const json = path.join(dir, 'bad.json');
    fs.writeFileSync(json, '[\n  {"user_id": "x"},\n  not json\n]');
    expect(runCli(json).out).toMatch(/line 2: user_id: /);
    const unknownUser = path.join(dir, 'stranger.csv');
    fs.writeFileSync(unknownUser, `user_id,provider,start,end,value\n${users[1]},oura,2026-01-01T00:00:00Z,2026-01-01T00:10:00Z,10\n0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c,oura,2026-01-01T00:00:00Z,2026-01-01T00:10:00Z,10\n`);
    const stranger = runCli(unknownUser);
    expect(stranger.code).toBe(1);
    expect(stranger.out).toMatch(/line 3: the service answered 404/);
    expect(runCli(path.join(dir, 'missing.csv')).code).toBe(2);
    expect(runCli(file, { SERVICE_API_KEY: '', DATA_DIR: dir }).out).toMatch(/SERVICE_API_KEY/);
  });
});

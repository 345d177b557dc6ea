/**
 * The BFF's own store per request, in-process: a session read (`touchSession`, straight from the
 * store; `LiveSessions.touch`, the request path, cached and catching up with the store's
 * announcements, one call at a time and 20 at once) and an audit event appended alone or in groups
 * (`appendEvent`, group-committed). Milliseconds per call; figures,
 * never pass/fail. On a fresh embedded store in a temporary directory and, with BENCH_DATABASE_URL,
 * on a fresh database on that PostgreSQL server (dropped after).
 *
 *   node --import tsx bench/bffStore.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/bffStore.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appendEvent } from '../server/bff/audit/chain';
import { LiveSessions } from '../server/bff/auth/liveSessions';
import { DEFAULT_SESSION_POLICY, startSession, touchSession } from '../server/bff/auth/sessions';
import { createStaff } from '../server/bff/auth/staff';
import { bffSchema } from '../server/bff/db/schema';
import { openStore } from '../server/store/db';
import { freshDatabase } from './lib/stack';

async function measure(databaseUrl: string | undefined) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bffstore-'));
  const database = databaseUrl ? await freshDatabase(databaseUrl) : undefined;
  const store = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: path.resolve('server/bff/db/migrations'), dataDir: dir, databaseUrl: database?.url });
  try {
    const db = store.db;
    const member = await createStaff(db, { email: 'bench@labdesk.local', password: 'correct horse battery staple 42', role: 'coordinator', name: 'Bench' });
    const { token } = await startSession(db, member.id);
    // What a users page records: 25 record ids, the range.
    const event = () => ({
      staffId: member.id,
      staffEmail: member.email,
      staffRole: 'coordinator',
      action: 'list',
      resource: 'users',
      recordIds: Array.from({ length: 25 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`),
      patientIds: [],
      detail: { range: [0, 24] },
      outcome: 'ok',
      statusCode: null,
      ip: '127.0.0.1',
    });
    const perCall = async (n: number, run: () => Promise<unknown>) => {
      const began = performance.now();
      for (let i = 0; i < n; i++) await run();
      return (performance.now() - began) / n;
    };
    await perCall(50, () => touchSession(db, token, DEFAULT_SESSION_POLICY)); // warm-up
    const session = await perCall(300, () => touchSession(db, token, DEFAULT_SESSION_POLICY));
    const live = await LiveSessions.create({ db, policy: DEFAULT_SESSION_POLICY, notifications: store.notifications, onSlideError: () => {} });
    await perCall(50, () => live.touch(token, new Date(), true)); // warm-up
    const cached = await perCall(300, () => live.touch(token, new Date(), true));
    const cached20 = (await perCall(30, () => Promise.all(Array.from({ length: 20 }, () => live.touch(token, new Date(), true))))) / 20;
    const uncached20 = (await perCall(30, () => Promise.all(Array.from({ length: 20 }, () => touchSession(db, token, DEFAULT_SESSION_POLICY))))) / 20;
    await live.close();
    const alone = await perCall(200, () => appendEvent(db, event()));
    const grouped = async (size: number) => (await perCall(200 / size, () => Promise.all(Array.from({ length: size }, () => appendEvent(db, event()))))) / size;
    const [g5, g20] = [await grouped(5), await grouped(20)];
    const store_ = databaseUrl ? 'postgres' : 'embedded';
    console.log(
      `${store_.padEnd(9)} session read from the store ${session.toFixed(2)} ms (20 at once: ${uncached20.toFixed(2)} ms each) | cached ${cached.toFixed(2)} ms (20 at once: ${cached20.toFixed(2)} ms each)`,
    );
    console.log(`${store_.padEnd(9)} audit event alone ${alone.toFixed(2)} ms | in groups of 5 ${g5.toFixed(2)} ms each | of 20 ${g20.toFixed(2)} ms each`);
  } finally {
    await store.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await measure(undefined);
if (process.env.BENCH_DATABASE_URL) await measure(process.env.BENCH_DATABASE_URL);

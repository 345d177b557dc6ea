import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildServiceApp } from '../server/service/app';
import { serviceSchema } from '../server/service/db/schema';
import { openStore } from '../server/store/db';
import { seedDemoIfEmpty } from '../server/service/seed/demo';
import { syncProviderCatalogue } from '../server/service/domain/providers';
let n = 0;
const texts: string[] = [];
for (const C of [pg.Pool, pg.Client]) {
  const orig = C.prototype.query;
  // eslint-disable-next-line
  (C.prototype as any).query = function (this: unknown, ...args: any[]) { n++; const t = typeof args[0] === 'string' ? args[0] : args[0]?.text; texts.push(String(t).replace(/\s+/g, ' ').slice(0, 160)); return (orig as any).apply(this, args); };
}
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
await admin.connect(); await admin.query('DROP DATABASE IF EXISTS dbg3 WITH (FORCE)'); await admin.query('CREATE DATABASE dbg3'); await admin.end();
const store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder: fileURLToPath(new URL('../server/service/db/migrations', import.meta.url)), databaseUrl: 'postgres://postgres@127.0.0.1:5432/dbg3' });
await syncProviderCatalogue(store.db);
const key = 'dbg_key_0123456789abcdef';
await seedDemoIfEmpty(store.db, { apiKey: key, users: 30 });
const app = await buildServiceApp({ db: store.db, notifications: store.notifications });
const h = { 'x-service-api-key': key };
const users = (await app.inject({ url: '/v2/user/?limit=25', headers: h })).json().users;
const uid = users[0].user_id;
const since = new Date(Date.now() - 90 * 864e5).toISOString().slice(0, 10);
const cases: [string, object][] = [
  ['users', { url: '/v2/user/?limit=25', headers: h }],
  ['ts', { url: `/v2/timeseries/${uid}/mindfulness_minutes/grouped?start_date=${since}`, headers: h }],
  ['orders', { url: '/v3/orders?page=1&size=25', headers: h }],
  ['avail', { method: 'POST', url: '/v3/order/phlebotomy/appointment/availability', headers: h, payload: { first_line: '1 Main St', city: 'Denver', state: 'CO', zip_code: '80202' } }],
];
for (const [name, req] of cases) {
  await app.inject(req as never); // warm
  n = 0; texts.length = 0;
  const t = performance.now();
  const r = await app.inject(req as never);
  console.log(name, r.statusCode, (performance.now() - t).toFixed(1), 'ms', n, 'queries', r.body.length, 'bytes');
  for (const x of texts) console.log('   ', x);
}
if (process.env.LOOP) { const t = performance.now(); for (let i = 0; i < 400; i++) await app.inject(cases[Number(process.env.LOOP)]![1] as never); console.log("loop avg", ((performance.now() - t) / 400).toFixed(1)); }
await app.close(); await store.close();

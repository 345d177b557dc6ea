/**
 * Every list and filter the API serves reads its growing tables through an index (issue 14): the
 * statements the app sends while answering those requests are captured, explained on the same store
 * with sequential scans disabled, and no plan may still read a growing table whole: neither a Seq
 * Scan (with enable_seqscan off, that means no index can serve the query) nor an index scan without
 * an index condition (what the planner picks instead when an index merely gives the order or covers
 * a partial predicate). Small catalogue-like tables (teams, api keys, labs, markers, lab tests, lab
 * accounts, providers, endpoints…) may be scanned.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, webhookOutbox } from '../../server/service/db/schema';
import { createParsingJob } from '../../server/service/domain/parsingJobs/create';
import { storeKinds, useService, type ServiceHarness } from './harness';
import { createBody, insertCatalogue, insertLabAccount, teamWithUser, type Catalogue, type OrderTeam } from './orderFixtures';

/** Tables that grow with use: reading one of them whole is what an index must prevent. */
const GROWING = new Set([
  'users',
  'connected_sources',
  'mindfulness_minutes',
  'orders',
  'order_events',
  'idempotency_keys',
  'jobs',
  'webhook_outbox',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'appointments',
  'appointment_events',
  'appointment_slots',
  'parsing_jobs',
  'parsing_job_files',
  'order_results',
  'biomarker_results',
]);

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

type QueryFn = (...args: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
interface StoreClient {
  query: QueryFn;
  /** node-postgres Pool only */
  connect?: () => Promise<{ query: QueryFn; release: () => void }>;
}

interface Statement {
  /** The request that sent it. */
  request: string;
  text: string;
  params: unknown[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** The text and parameters of a call to the store client: `query(text, params, options)` or `query({ text, values })`. */
function statementOf(args: unknown[]): { text: string; params: unknown[] } | undefined {
  const [first, second] = args;
  if (typeof first === 'string') return { text: first, params: Array.isArray(second) ? second : [] };
  if (first && typeof first === 'object' && typeof (first as { text?: unknown }).text === 'string') {
    const config = first as { text: string; values?: unknown[] };
    return { text: config.text, params: config.values ?? (Array.isArray(second) ? second : []) };
  }
  return undefined;
}

/**
 * The reads of a whole relation in a plan, anywhere in its tree (init plans, sub plans, CTEs): a Seq
 * Scan, or an index scan without an index condition (with sequential scans off the planner walks a
 * whole index instead when one gives the order or covers a partial predicate: no index serves the
 * filter either way).
 */
function wholeReads(node: PlanNode, heap?: string, out: { relation: string; how: string }[] = []) {
  const type = node['Node Type'];
  const relation = node['Relation Name'] ?? heap;
  if (type === 'Seq Scan' && relation) out.push({ relation, how: 'Seq Scan' });
  if (/^(Index Scan|Index Only Scan|Bitmap Index Scan)$/.test(type) && !node['Index Cond'] && relation) {
    out.push({ relation, how: `${type} using ${node['Index Name']} without an index condition (the whole index)` });
  }
  for (const child of node.Plans ?? []) wholeReads(child, type === 'Bitmap Heap Scan' ? node['Relation Name'] : undefined, out);
  return out;
}

describe.each(storeKinds)('list and filter queries read growing tables through indexes (%s)', (kind) => {
  const svc = useService(kind);
  let cat: Catalogue;
  let team: OrderTeam;
  let secondUser: string;
  const orders: string[] = [];
  let endpointId: string;
  let parsingJobId: string;
  const statements: Statement[] = [];

  const client = () => (svc().db as unknown as { $client: StoreClient }).$client;

  /** Sends a GET the way a client does, capturing every statement the store client receives meanwhile. */
  async function get(path: string, status = 200) {
    const c = client();
    const original = c.query;
    c.query = function (this: unknown, ...args: unknown[]) {
      const s = statementOf(args);
      if (s) statements.push({ request: `GET ${path}`, ...s });
      return original.apply(this, args);
    };
    try {
      const r = await svc().api(team.team.apiKey).get(path);
      expect(r.status, `GET ${path}: ${JSON.stringify(r.body)}`).toBe(status);
      return r.body;
    } finally {
      c.query = original;
    }
  }

  /** The plan of a statement with sequential scans off, on one session of the store. */
  async function explain(s: ServiceHarness, text: string, params: unknown[]): Promise<PlanNode> {
    const c = (s.db as unknown as { $client: StoreClient }).$client;
    const run = async (q: QueryFn) => {
      await q('SET enable_seqscan = off');
      try {
        const { rows } = await q(`EXPLAIN (FORMAT JSON) ${text}`, params);
        const raw = Object.values(rows[0]!)[0];
        const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
        return plan[0]!.Plan;
      } finally {
        await q('RESET enable_seqscan');
      }
    };
    if (c.connect) {
      // A pool: the SET and the EXPLAIN must share a connection.
      const pooled = await c.connect();
      try {
        return await run((...args) => pooled.query(...args));
      } finally {
        pooled.release();
      }
    }
    return run((...args) => c.query(...args));
  }

  beforeAll(async () => {
    const s = svc();
    cat = await insertCatalogue(s.db);
    team = await teamWithUser(s, `pt-plans-${kind}`);
    secondUser = await s.createUser(team.team, { client_user_id: `pt-plans-${kind}-2` });
    for (let i = 0; i < 3; i++) await s.createUser(team.team, { client_user_id: `pt-plans-${kind}-extra-${i}` });
    await insertLabAccount(s.db, team.team.teamId, { lab: 'quest' });
    await insertLabAccount(s.db, team.team.teamId, { lab: 'labcorp' });
    for (const [user, test] of [
      [team.userId, cat.questPanel],
      [team.userId, cat.questKit],
      [secondUser, cat.labcorpPanel],
      [secondUser, cat.questPanel],
    ] as const) {
      const r = await s.api(team.team.apiKey).post('/v3/order/create', createBody(user, test));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      orders.push(r.body.order.id);
    }
    // One completed order, so results, biomarkers and result filters have rows to read.
    const done = await s.api(team.team.apiKey).post(`/v3/order/${orders[0]}/test?final_status=completed.walk_in_test.completed`, { interpretation: 'critical' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    // Timeseries points over a few days, from two providers.
    const start = Date.UTC(2026, 9, 1, 8);
    await s.insertPoints(
      team.userId,
      Array.from({ length: 40 }, (_, i) => ({ provider: i % 2 ? 'oura' : 'apple_health_kit', start: new Date(start + i * 3 * 3_600_000), minutes: 5 + (i % 7) })),
    );

    // Parsing jobs, left queued (no reader runs here).
    for (let i = 0; i < 3; i++) {
      const job = await createParsingJob(s.db, team.team.teamId, team.userId, { bytes: Buffer.from(PNG), filename: `report-${i}.png` }, i === 0);
      parsingJobId = job.id;
    }

    // A webhook endpoint with a delivery for each event the team emitted, and an attempt for each.
    const [endpoint] = await s.db
      .insert(webhookEndpoints)
      .values({ teamId: team.team.teamId, url: 'https://hooks.example.com/labdesk', eventTypes: ['*'], secret: 'whsec_dGVzdA==' })
      .returning({ id: webhookEndpoints.id });
    endpointId = endpoint!.id;
    const events = await s.db.select().from(webhookOutbox).where(eq(webhookOutbox.teamId, team.team.teamId));
    expect(events.length).toBeGreaterThan(3);
    const deliveries = await s.db
      .insert(webhookDeliveries)
      .values(
        events.map((e, i) => ({
          teamId: team.team.teamId,
          endpointId,
          seq: e.id,
          eventId: e.eventId,
          eventType: e.eventType,
          subject: String((e.payload as { data?: { id?: unknown } }).data?.id ?? ''),
          status: i % 2 ? 'delivered' : 'failed',
          attemptCount: 1,
          lastAttemptAt: new Date(),
        })),
      )
      .returning({ id: webhookDeliveries.id });
    await s.db
      .insert(webhookDeliveryAttempts)
      .values(deliveries.map((d) => ({ deliveryId: d.id, attemptedAt: new Date(), durationMs: 12, statusCode: 500, error: 'HTTP 500' })));
  });

  it('captures the statements of every list and filter', async () => {
    const users = await get('/v2/user/?limit=2');
    expect(users.users).toHaveLength(2);
    await get('/v2/user/?offset=2&limit=2');
    await get('/v2/user/?offset=50&limit=2');
    await get(`/v2/user/${secondUser}`);
    await get(`/v2/user/resolve/pt-plans-${kind}-2`);

    const grouped = await get(`/v2/timeseries/${team.userId}/mindfulness_minutes/grouped?start_date=2026-10-01&end_date=2026-10-04`);
    if (grouped.next_cursor) await get(`/v2/timeseries/${team.userId}/mindfulness_minutes/grouped?start_date=2026-10-01&end_date=2026-10-04&next_cursor=${encodeURIComponent(grouped.next_cursor)}`);
    await get(`/v2/timeseries/${team.userId}/mindfulness_minutes/grouped?start_date=2026-10-01&provider=oura`);

    await get(`/v2/user/${team.userId}/biomarkers`);
    await get(`/v2/user/${team.userId}/biomarkers/2345-7`);

    const page1 = await get('/v3/orders?page=1&size=2');
    expect(page1.total).toBe(4);
    await get('/v3/orders?page=2&size=2');
    await get('/v3/orders?page=5&size=2');
    await get('/v3/orders?status=ordered&status=completed');
    await get(`/v3/orders?user_id=${secondUser}`);
    await get('/v3/orders?order_key=last_status&order_direction=asc');
    await get('/v3/orders?order_key=patient_name');
    await get(`/v3/orders?search_input=${encodeURIComponent(`pt-plans-${kind}-2`)}`);
    await get('/v3/orders?patient_name=Ada');
    await get('/v3/orders?start_date=2020-01-01&end_date=2099-12-31&updated_start_date=2020-01-01');
    await get('/v3/orders?order_type=walk_in_test&order_type=testkit');
    await get(`/v3/orders?order_ids=${orders[0]}&order_ids=${orders[2]}`);
    await get('/v3/orders?interpretation=critical&critical_acknowledged=false');
    await get('/v3/orders?status=ordered&include_critical_unacknowledged=true');

    await get(`/v3/order/${orders[1]}`);
    await get(`/v3/order/${orders[0]}/result`);
    await get(`/v3/order/${orders[0]}/result/metadata`);
    await get(`/v3/order/${orders[0]}/result/critical/acknowledgement`);
    await get(`/v3/order/${orders[1]}/phlebotomy/appointment`, 404);

    const jobs = await get('/lab_report/v1/parser/jobs?limit=2');
    expect(jobs.next_cursor).toEqual(expect.any(String));
    await get(`/lab_report/v1/parser/jobs?limit=2&next_cursor=${encodeURIComponent(jobs.next_cursor)}`);
    await get('/lab_report/v1/parser/jobs?stage=queued&order=asc');
    await get('/lab_report/v1/parser/jobs?stage=awaiting_review&order=asc');
    await get(`/lab_report/v1/parser/jobs?status=started&needs_human_review=true&user_id=${team.userId}`);
    await get(`/lab_report/v1/parser/job/${parsingJobId}`);
    await get('/lab_report/v1/parser/queue');

    await get('/v2/webhooks/endpoints');
    const deliveries = await get(`/v2/webhooks/endpoints/${endpointId}/deliveries?limit=2`);
    expect(deliveries.data).toHaveLength(2);
    if (deliveries.next_cursor) await get(`/v2/webhooks/endpoints/${endpointId}/deliveries?limit=2&cursor=${encodeURIComponent(deliveries.next_cursor)}`);
    await get(`/v2/webhooks/endpoints/${endpointId}/deliveries?status=failed`);
    await get(`/v2/webhooks/endpoints/${endpointId}/deliveries/${deliveries.data[0].id}`);

    expect(statements.filter((s) => /^\s*(select|with)\b/i.test(s.text)).length).toBeGreaterThan(30);
  });

  it('explains every captured read without a whole read of a growing table', async () => {
    expect(statements.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    const problems: string[] = [];
    let explained = 0;
    for (const s of statements) {
      if (!/^\s*(select|with)\b/i.test(s.text)) continue;
      const key = `${s.text}\u0000${JSON.stringify(s.params)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const plan = await explain(svc(), s.text, s.params);
      explained++;
      for (const read of wholeReads(plan).filter((r) => GROWING.has(r.relation))) {
        problems.push(`${s.request}: ${read.how} on ${read.relation}: no index serves this statement\n  ${s.text}\n  params ${JSON.stringify(s.params)}`);
      }
    }
    expect(explained).toBeGreaterThan(20);
    expect(problems.length, `reads of a growing table that no index serves:\n\n${problems.join('\n\n')}\n`).toBe(0);
  });
});

/**
 * Careless and hostile input never reaches the store: the contract's one text rule (no NUL, no
 * unpaired surrogate, anywhere), query enums validated like body enums, and a property-based
 * attack on every write endpoint of the OpenAPI document that must end in a well-formed 4xx and
 * leave every table as it was.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEXT_RULE_TYPE } from '../../server/contract';
import { createBody, insertCatalogue, teamWithUser, type Catalogue, type OrderTeam } from './orderFixtures';
import { multipart } from './parserJobMultipart';
import { ADMIN_TOKEN, storeKinds, useService } from './harness';

const LONE = '\ud800';

describe.each(storeKinds)('the text rule and query enums (%s)', (kind) => {
  const svc = useService(kind);
  let cat: Catalogue;
  let main: OrderTeam;

  beforeAll(async () => {
    cat = await insertCatalogue(svc().db);
    main = await teamWithUser(svc(), `text-${kind}-1`);
  });

  it('refuses a lone surrogate in an order address with 422 at its field (it was a 500 from the store)', async () => {
    const body = createBody(main.userId, cat.questPanel, { patient_address: { ...(createBody(main.userId, undefined).patient_address as object), second_line: LONE } });
    const r = await svc().api(main.team.apiKey).post('/v3/order/create', body);
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([{ loc: ['body', 'patient_address', 'second_line'], msg: expect.stringMatching(/NUL|surrogate/), type: TEXT_RULE_TYPE }]);
  });

  it('refuses NUL in a search with 422 at the query field (it was a 500)', async () => {
    const r = await svc().inject({ method: 'GET', url: `/v3/orders?search_input=${encodeURIComponent("\u0000'\"")}`, key: main.team.apiKey });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'search_input'], type: TEXT_RULE_TYPE })]);
  });

  it('validates query enums like body enums (an unknown lab account status was a 200 with nothing)', async () => {
    const r = await svc().inject({ method: 'GET', url: '/v3/lab_test/lab_account?status=bogus', key: main.team.apiKey });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'status']);
    expect((await svc().inject({ method: 'GET', url: '/v3/lab_test/lab_account?status=active', key: main.team.apiKey })).status).toBe(200);
    for (const url of ['/v3/orders?status=bogus', '/v3/orders?order_type=drone', '/lab_report/v1/parser/jobs?stage=bogus', '/lab_report/v1/parser/jobs?status=bogus']) {
      const bad = await svc().inject({ method: 'GET', url, key: main.team.apiKey });
      expect(bad.status, url).toBe(422);
    }
  });

  it('checks object keys, path values and multipart fields by the same rule', async () => {
    const key = await svc().api(main.team.apiKey).post('/v2/user', { client_user_id: 'text-keys', [`a${LONE}`]: 1 });
    expect(key.status).toBe(422);
    expect(key.body.detail[0]).toMatchObject({ loc: ['body', `a${LONE}`], type: TEXT_RULE_TYPE });
    const path = await svc().inject({ method: 'GET', url: '/v2/user/resolve/a%00b', key: main.team.apiKey });
    expect(path.status).toBe(422);
    expect(path.body.detail[0]).toMatchObject({ loc: ['path', 'client_user_id'], type: TEXT_RULE_TYPE });
    const form = multipart({ user_id: main.userId, needs_human_review: 'tr\u0000ue' }, [{ bytes: Buffer.from('%PDF-1.4\n'), filename: 'r.pdf' }]);
    const upload = await svc().inject({ method: 'POST', url: '/lab_report/v1/parser/job', key: main.team.apiKey, payload: form.payload, headers: form.headers });
    expect(upload.status).toBe(422);
    expect(upload.body.detail[0]).toMatchObject({ loc: ['body', 'needs_human_review'], type: TEXT_RULE_TYPE });
  });

  it('keeps text that is merely unusual: emoji, other scripts, quotes', async () => {
    const r = await svc().api(main.team.apiKey).post('/v2/user', { client_user_id: `ünïcødé-患者-🧘‍♀️-'"-${kind}` });
    expect(r.status).toBe(200);
  });
});

/** Strings and values a hostile or careless client sends. */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000', LONE, '\udc00x', 'a\u0000b', "'; DROP TABLE service.users; --", '%00', '../../etc/passwd', '1e309', 'NaN', '-0', '__proto__', 'constructor', '💥🧘‍♀️', 'x'.repeat(70_000)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'user_id', 'patient_details', 'booking_key')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Every documented write route, from the service's own OpenAPI document. */
async function writeRoutes(svc: ReturnType<ReturnType<typeof useService>>): Promise<{ method: string; path: string; multipart: boolean }[]> {
  const doc = (await svc.inject({ method: 'GET', url: '/openapi.json' })).body as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> };
  const routes = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      routes.push({ method: method.toUpperCase(), path, multipart: Boolean(op.requestBody?.content?.['multipart/form-data']) });
    }
  }
  return routes;
}

describe.each(storeKinds)('hostile bodies, queries and forms at every write endpoint (%s)', (kind) => {
  const svc = useService(kind);
  let team: OrderTeam;

  beforeAll(async () => {
    await insertCatalogue(svc().db);
    team = await teamWithUser(svc(), `fuzz-${kind}-1`);
  });

  /** Row counts of every table of the service's schema: a refused request must leave them all as they were. */
  async function tableCounts(): Promise<Record<string, number>> {
    const tables = await svc().db.execute(sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'service' AND table_type = 'BASE TABLE'`);
    const counts: Record<string, number> = {};
    for (const { table_name } of (tables as unknown as { rows: { table_name: string }[] }).rows) {
      const r = await svc().db.execute(sql.raw(`SELECT count(*)::int AS n FROM service."${table_name}"`));
      counts[table_name] = (r as unknown as { rows: { n: number }[] }).rows[0]!.n;
    }
    return counts;
  }

  it('answers each with a well-formed 4xx (the interface allows a 500 only for a provider refusing a booking) and writes nothing', async () => {
    const routes = await writeRoutes(svc());
    expect(routes.length).toBeGreaterThan(15);
    const seen = new Set<string>();
    for (const route of routes) {
      const property = fc.asyncProperty(
        fc.array(hostileString, { minLength: 3, maxLength: 3 }),
        hostileValue,
        fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
        async (pathValues, body, query) => {
          let i = 0;
          const url = route.path.replace(/\{[^}]+\}/g, () => encodePath(pathValues[i++] ?? ''));
          const qs = Object.entries(query).map(([k, v]) => `${encodePath(k)}=${encodePath(v)}`).join('&');
          const headers: Record<string, string> = { 'x-service-api-key': team.team.apiKey };
          if (route.path.startsWith('/admin/')) headers['x-admin-token'] = ADMIN_TOKEN;
          let payload: string | Buffer;
          if (route.multipart) {
            const form = multipart(
              Object.fromEntries(Object.entries((body && typeof body === 'object' && !Array.isArray(body) ? body : { user_id: body }) as Record<string, unknown>).map(([k, v]) => [k.replace(/["\r\n]/g, ''), typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])),
              [{ bytes: Buffer.from(JSON.stringify(body) ?? ''), filename: String(pathValues[0]).replace(/["\r\n]/g, '') }],
            );
            payload = form.payload;
            Object.assign(headers, form.headers);
          } else {
            payload = JSON.stringify(body) ?? 'null';
            headers['content-type'] = 'application/json';
          }
          const before = await tableCounts();
          const r = await svc().app.inject({ method: route.method as 'POST', url: qs ? `${url}?${qs}` : url, headers, payload });
          seen.add(`${route.method} ${route.path}`);
          const answer = r.body ? (JSON.parse(r.body) as { detail?: unknown }) : {};
          if (r.statusCode >= 200 && r.statusCode < 300) return; // a valid write by chance (e.g. an empty PATCH)
          const bookingRefusal = r.statusCode === 500 && /appointment\/.*book/.test(route.path);
          expect(r.statusCode >= 400 && r.statusCode < 500 || bookingRefusal, `${route.method} ${route.path} → ${r.statusCode} ${r.body.slice(0, 300)}`).toBe(true);
          expect(answer.detail, `${route.method} ${route.path}: ${r.body.slice(0, 300)}`).toBeDefined();
          if (r.statusCode === 422) {
            expect(Array.isArray(answer.detail)).toBe(true);
            for (const issue of answer.detail as unknown[]) expect(issue).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
          }
          expect(await tableCounts(), `${route.method} ${route.path} wrote although it answered ${r.statusCode}`).toEqual(before);
        },
      );
      await fc.assert(property, { numRuns: 25, seed: 20261124 });
    }
    expect([...seen].sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    // 25 runs over every write route: about 15 s on a busy shared machine (the suite's 120 s limit covers it).
  });
});

/** encodeURIComponent, with a lone surrogate sent as its (invalid) UTF-8 bytes instead of throwing. */
function encodePath(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
}

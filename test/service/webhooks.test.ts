import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '../../server/service/app';
import { ADMIN_TOKEN, expect422, expectDetail, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ENDPOINTS = '/v2/webhooks/endpoints';

describe.each(storeKinds)('webhook endpoints API (%s)', (kind) => {
  const svc = useService(kind);
  /** The service as started with WEBHOOK_ALLOW_PRIVATE_URLS=true. */
  let open: FastifyInstance;
  let team: Team;
  let other: Team;

  beforeAll(async () => {
    open = await buildServiceApp({ db: svc().db, adminToken: ADMIN_TOKEN, webhookAllowPrivateUrls: true });
    await open.ready();
    team = await svc().createTeam();
    other = await svc().createTeam();
  });
  afterAll(async () => {
    await open?.close();
  });

  const api = (t: Team = team) => svc().api(t.apiKey);
  /** Requests to the app that allows private URLs. */
  const openApi = (t: Team = team) => ({
    post: (url: string, payload: unknown) => svc().inject({ method: 'POST', url, key: t.apiKey, payload: payload as object }, open),
    get: (url: string) => svc().inject({ method: 'GET', url, key: t.apiKey }, open),
  });

  it('creates an endpoint (201) with a whsec_ secret shown on creation and by …/secret only', async () => {
    const r = await openApi().post(ENDPOINTS, { url: 'http://127.0.0.1:9/hooks', description: 'ops receiver' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(
      ['created_at', 'description', 'disabled_at', 'disabled_reason', 'event_types', 'id', 'secret', 'updated_at', 'url'].sort(),
    );
    expect(r.body.id).toMatch(UUID);
    expect(r.body.url).toBe('http://127.0.0.1:9/hooks');
    expect(r.body.event_types).toEqual(['*']);
    expect(r.body.description).toBe('ops receiver');
    expect(r.body.created_at).toMatch(ISO_UTC);
    expect(r.body.disabled_at).toBeNull();
    expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const key = Buffer.from(r.body.secret.slice('whsec_'.length), 'base64');
    expect(key.length).toBeGreaterThanOrEqual(24);
    expect(key.length).toBeLessThanOrEqual(32);

    const got = await api().get(`${ENDPOINTS}/${r.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).toEqual(Object.fromEntries(Object.entries(r.body).filter(([k]) => k !== 'secret')));

    const list = await api().get(ENDPOINTS);
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(r.body.id);
    for (const e of list.body.data) expect(e).not.toHaveProperty('secret');

    const secret = await api().get(`${ENDPOINTS}/${r.body.id}/secret`);
    expect(secret.status).toBe(200);
    expect(secret.body).toEqual({ secret: r.body.secret });

    // Each endpoint has its own secret.
    const second = await openApi().post(ENDPOINTS, { url: 'http://127.0.0.1:9/other' });
    expect(second.body.secret).not.toBe(r.body.secret);
  });

  it('keeps event type lists: types, families and "*"; unknown dotted names are accepted', async () => {
    const r = await api().post(ENDPOINTS, {
      url: 'https://93.184.216.34/hooks',
      event_types: ['labtest.order.*', 'lab_report.parsing_job.created', 'labtest.order.*', 'some.future.event_v2'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.event_types).toEqual(['labtest.order.*', 'lab_report.parsing_job.created', 'some.future.event_v2']);
    const all = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/all', event_types: ['labtest.order.created', '*'] });
    expect(all.body.event_types).toEqual(['*']);
    const nul = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/null', event_types: null });
    expect(nul.body.event_types).toEqual(['*']);
  });

  it('refuses bad URLs and event types with 422 in the detail shape', async () => {
    const bad = async (body: Record<string, unknown>, loc: (string | number)[]) => {
      const r = await api().post(ENDPOINTS, body);
      return expect422(r, loc);
    };
    await bad({}, ['body', 'url']);
    await bad({ url: '' }, ['body', 'url']);
    await bad({ url: 'not a url' }, ['body', 'url']);
    for (const url of ['ftp://93.184.216.34/x', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://93.184.216.34/']) {
      const [issue] = await bad({ url }, ['body', 'url']);
      expect(issue!.msg).toMatch(/http/);
    }
    const [cred] = await bad({ url: 'https://user:secret@93.184.216.34/hooks' }, ['body', 'url']);
    expect(cred!.msg).toMatch(/credentials/);
    await bad({ url: 'https://user@93.184.216.34/hooks' }, ['body', 'url']);
    const [long] = await bad({ url: `https://93.184.216.34/${'a'.repeat(2000)}` }, ['body', 'url']);
    expect(long!.msg).toMatch(/2000/);
    // Exactly 2000 characters is fine.
    const base = 'https://93.184.216.34/';
    const ok = await api().post(ENDPOINTS, { url: base + 'a'.repeat(2000 - base.length) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);

    await bad({ url: 'https://93.184.216.34/', event_types: [] }, ['body', 'event_types']);
    await bad({ url: 'https://93.184.216.34/', event_types: ['Labtest.Order'] }, ['body', 'event_types', 0]);
    await bad({ url: 'https://93.184.216.34/', event_types: ['ok.type', 'spaces not allowed'] }, ['body', 'event_types', 1]);
    await bad({ url: 'https://93.184.216.34/', event_types: ['*.order'] }, ['body', 'event_types', 0]);
    await bad({ url: 'https://93.184.216.34/', event_types: 'labtest.order.created' }, ['body', 'event_types']);
    await bad({ url: 'https://93.184.216.34/', description: 'x'.repeat(501) }, ['body', 'description']);
  });

  it('refuses private, loopback and link-local targets unless the service allows them', async () => {
    const privateUrls = [
      'http://127.0.0.1:8080/hooks',
      'http://127.1.2.3/',
      'http://localhost:3000/',
      'http://api.localhost/',
      'http://10.0.0.5/',
      'http://172.16.3.4/',
      'http://192.168.1.10/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/', // 127.0.0.1 written as a number
      'http://0x7f.1/',
    ];
    for (const url of privateUrls) {
      const r = await api().post(ENDPOINTS, { url });
      const [issue] = expect422(r, ['body', 'url']);
      expect(issue!.type, url).toBe('value_error.url.private');
    }
    // The service started with WEBHOOK_ALLOW_PRIVATE_URLS=true takes them (tests and the local demo need 127.0.0.1).
    for (const url of ['http://127.0.0.1:8080/hooks', 'http://localhost:3000/', 'http://[::1]/']) {
      const r = await openApi().post(ENDPOINTS, { url });
      expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(201);
    }
    // Changing an endpoint's URL follows the same rule.
    const created = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/hooks' });
    const patched = await api().patch(`${ENDPOINTS}/${created.body.id}`, { url: 'http://10.1.2.3/' });
    expect422(patched, ['body', 'url']);
  });

  it('takes only https:// URLs unless the service allows plain http for local development', async () => {
    for (const url of ['http://93.184.216.34/hooks', 'http://[2606:4700:4700::1111]/hooks']) {
      const [issue] = expect422(await api().post(ENDPOINTS, { url }), ['body', 'url']);
      expect(issue!.type, url).toBe('value_error.url.scheme');
      expect(issue!.msg).toMatch(/https/);
    }
    const created = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/hooks' });
    expect(created.status).toBe(201);
    expect422(await api().patch(`${ENDPOINTS}/${created.body.id}`, { url: 'http://93.184.216.34/hooks' }), ['body', 'url']);
    expect((await openApi().post(ENDPOINTS, { url: 'http://93.184.216.34/hooks' })).status).toBe(201);
  });

  it('changes an endpoint with PATCH: url, event types, description, disabled', async () => {
    const created = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/a' });
    const id = created.body.id as string;
    let r = await api().patch(`${ENDPOINTS}/${id}`, { url: 'https://93.184.216.34/b', event_types: ['labtest.appointment.*'], description: 'B' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id, url: 'https://93.184.216.34/b', event_types: ['labtest.appointment.*'], description: 'B', disabled_at: null });
    expect(r.body).not.toHaveProperty('secret');
    r = await api().patch(`${ENDPOINTS}/${id}`, { disabled: true });
    expect(r.body.disabled_at).toMatch(ISO_UTC);
    expect(r.body.disabled_reason).toMatch(/team/);
    expect(r.body.url).toBe('https://93.184.216.34/b');
    r = await api().patch(`${ENDPOINTS}/${id}`, { disabled: false, event_types: null });
    expect([r.body.disabled_at, r.body.disabled_reason, r.body.event_types]).toEqual([null, null, ['*']]);
    expect422(await api().patch(`${ENDPOINTS}/${id}`, { disabled: 'yes' }), ['body', 'disabled']);
  });

  it('deletes an endpoint (204); afterwards it is unknown', async () => {
    const created = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/gone' });
    const id = created.body.id as string;
    const del = await api().delete(`${ENDPOINTS}/${id}`);
    expect(del.status).toBe(204);
    expectDetail(await api().get(`${ENDPOINTS}/${id}`), 404);
    expectDetail(await api().delete(`${ENDPOINTS}/${id}`), 404);
    expect((await api().get(ENDPOINTS)).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
  });

  it("answers another team's endpoint exactly like an unknown one (404)", async () => {
    const created = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/mine' });
    const id = created.body.id as string;
    for (const target of [id, UNKNOWN_UUID]) {
      const paths = [
        ['GET', `${ENDPOINTS}/${target}`],
        ['GET', `${ENDPOINTS}/${target}/secret`],
        ['GET', `${ENDPOINTS}/${target}/deliveries`],
        ['GET', `${ENDPOINTS}/${target}/deliveries/${UNKNOWN_UUID}`],
        ['DELETE', `${ENDPOINTS}/${target}`],
      ] as const;
      for (const [method, url] of paths) {
        const r = await svc().inject({ method, url, key: other.apiKey });
        expectDetail(r, 404);
        expect(r.body.detail).toBe('Webhook endpoint not found');
      }
      const patch = await svc().inject({ method: 'PATCH', url: `${ENDPOINTS}/${target}`, key: other.apiKey, payload: { description: 'x' } });
      expectDetail(patch, 404);
      const replay = await svc().inject({ method: 'POST', url: `${ENDPOINTS}/${target}/deliveries/${UNKNOWN_UUID}/replay`, key: other.apiKey });
      expectDetail(replay, 404);
    }
    expect((await api(other).get(ENDPOINTS)).body.data).toEqual([]);
    // Still there for its own team.
    expect((await api().get(`${ENDPOINTS}/${id}`)).status).toBe(200);
  });

  it('validates ids and the delivery-log query; needs an API key', async () => {
    expect422(await api().get(`${ENDPOINTS}/not-a-uuid`), ['path', 'endpoint_id']);
    const created = await api().post(ENDPOINTS, { url: 'https://93.184.216.34/q' });
    const id = created.body.id as string;
    expect422(await api().get(`${ENDPOINTS}/${id}/deliveries?limit=0`), ['query', 'limit']);
    expect422(await api().get(`${ENDPOINTS}/${id}/deliveries?limit=101`), ['query', 'limit']);
    expect422(await api().get(`${ENDPOINTS}/${id}/deliveries?cursor=abc.def`), ['query', 'cursor']);
    expect422(await api().get(`${ENDPOINTS}/${id}/deliveries/nope`), ['path', 'delivery_id']);
    expectDetail(await api().get(`${ENDPOINTS}/${id}/deliveries/${UNKNOWN_UUID}`), 404);
    const empty = await api().get(`${ENDPOINTS}/${id}/deliveries`);
    expect(empty.body).toEqual({ data: [], next_cursor: null });
    for (const [method, url] of [
      ['GET', ENDPOINTS],
      ['POST', ENDPOINTS],
      ['GET', `${ENDPOINTS}/${id}/secret`],
    ] as const) {
      expect((await svc().inject({ method, url })).status).toBe(401);
    }
  });

  it('limits a team to 20 endpoints', async () => {
    const t = await svc().createTeam();
    for (let i = 0; i < 20; i++) expect((await api(t).post(ENDPOINTS, { url: `https://93.184.216.34/${i}` })).status).toBe(201);
    expect422(await api(t).post(ENDPOINTS, { url: 'https://93.184.216.34/21' }), ['body']);
    expect((await api(t).get(ENDPOINTS)).body.data).toHaveLength(20);
  });

  it('documents the webhook operations in the OpenAPI document', async () => {
    const doc = (await svc().inject({ method: 'GET', url: '/openapi.json' })).body as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    for (const op of [
      'POST /v2/webhooks/endpoints',
      'GET /v2/webhooks/endpoints',
      'GET /v2/webhooks/endpoints/{endpoint_id}',
      'PATCH /v2/webhooks/endpoints/{endpoint_id}',
      'DELETE /v2/webhooks/endpoints/{endpoint_id}',
      'GET /v2/webhooks/endpoints/{endpoint_id}/secret',
      'GET /v2/webhooks/endpoints/{endpoint_id}/deliveries',
      'GET /v2/webhooks/endpoints/{endpoint_id}/deliveries/{delivery_id}',
      'POST /v2/webhooks/endpoints/{endpoint_id}/deliveries/{delivery_id}/replay',
    ]) {
      expect(ops).toContain(op);
    }
  });
});

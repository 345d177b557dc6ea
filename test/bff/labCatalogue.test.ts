/**
 * The lab catalogue resources (`lab-accounts`, `markers`, `lab-tests`, `labs`) against the real
 * service with its synced catalogue and the demo lab accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabAccount, MarkerComplete } from '../../server/contract';
import { UNKNOWN_UUID, listQuery, startBff, type BffFixture, type Session } from './harness';
import { startLabService, type LabServiceFixture } from './ordersFixture';

let service: LabServiceFixture;
let bff: BffFixture;
let labOps: Session;
let reviewer: Session;
/** The team's accounts in the service's own order, and another team's. */
let accounts: LabAccount[];
let foreignAccount: LabAccount;

beforeAll(async () => {
  service = await startLabService();
  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  [labOps, reviewer] = await Promise.all([bff.login('lab_ops'), bff.login('reviewer')]);
  accounts = (await service.call<{ data: LabAccount[] }>(service.team, 'GET', '/v3/lab_test/lab_account')).body.data;
  foreignAccount = (await service.call<{ data: LabAccount[] }>(service.otherTeam, 'GET', '/v3/lab_test/lab_account')).body.data[0]!;
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

const get = <T>(url: string, s: Session = labOps) => bff.get<T>(url, s);

describe('lab-accounts', () => {
  it('lists the team’s accounts in one page with Content-Range and the count as total', async () => {
    expect(accounts).toHaveLength(4);
    const r = await get<LabAccount[]>('/api/lab-accounts');
    expect(r.status).toBe(200);
    expect(r.headers['content-range']).toBe('lab-accounts 0-3/4');
    expect(r.body.map((a) => a.id)).toEqual(accounts.map((a) => a.id));
    expect(r.body[0]).toMatchObject({ id: accounts[0]!.id, lab: 'quest', status: 'active' });
    expect(r.body[0]!.allowed_billing.client_bill).toContain('TX');
    expect(r.raw.body).not.toContain(service.team.apiKey);
  });

  it('slices a range of the one list, keeping the total', async () => {
    const r = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ range: [1, 2] })}`);
    expect(r.headers['content-range']).toBe('lab-accounts 1-2/4');
    expect(r.body.map((a) => a.id)).toEqual(accounts.slice(1, 3).map((a) => a.id));
    const past = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ range: [10, 19] })}`);
    expect(past.body).toEqual([]);
    expect(past.headers['content-range']).toBe('lab-accounts */4');
  });

  it('filters by status (one or several) and by lab', async () => {
    const active = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ filter: { status: 'active' } })}`);
    expect(active.headers['content-range']).toBe('lab-accounts 0-2/3');
    expect(active.body.every((a) => a.status === 'active')).toBe(true);
    const pending = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ filter: { status: ['pending'] } })}`);
    expect(pending.body.map((a) => a.lab)).toEqual(['sonora_quest']);
    const both = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ filter: { status: ['pending', 'active'] } })}`);
    expect(both.body).toHaveLength(4);
    const unknown = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ filter: { status: 'archived' } })}`);
    expect(unknown.status).toBe(422); // the service refuses an unknown status, as it does an unknown body enum
    const labcorp = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ filter: { lab: 'labcorp' } })}`);
    expect(labcorp.body.map((a) => a.lab)).toEqual(['labcorp']);
  });

  it('sorts by lab, status or account name, and refuses other sorts with 400', async () => {
    const byLab = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ sort: ['lab', 'DESC'] })}`);
    expect(byLab.body.map((a) => a.lab)).toEqual(['sonora_quest', 'quest', 'labcorp', 'bioreference']);
    const byStatus = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ sort: ['status', 'DESC'] })}`);
    expect(byStatus.body[0]!.status).toBe('pending');
    for (const sort of [['provider_account_id', 'ASC'], ['created_at', 'DESC']]) {
      const r = await bff.get(`/api/lab-accounts${listQuery({ sort })}`, labOps);
      expect(r.status, JSON.stringify(sort)).toBe(400);
      expect(r.body.message).toMatch(/sort/i);
    }
  });

  it('getOne answers an account; an unknown, foreign or malformed id is 404', async () => {
    const r = await get<LabAccount>(`/api/lab-accounts/${accounts[1]!.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: accounts[1]!.id, lab: accounts[1]!.lab });
    for (const id of [UNKNOWN_UUID, foreignAccount.id, 'not-a-uuid']) {
      const miss = await bff.get(`/api/lab-accounts/${id}`, labOps);
      expect(miss.status, id).toBe(404);
      expect(miss.body.message).toBeTruthy();
    }
  });

  it('getMany answers the known ids only', async () => {
    const r = await get<LabAccount[]>(`/api/lab-accounts${listQuery({ filter: { id: [accounts[2]!.id, foreignAccount.id, UNKNOWN_UUID] } })}`);
    expect(r.body.map((a) => a.id)).toEqual([accounts[2]!.id]);
  });
});

describe('markers', () => {
  let total: number;
  beforeAll(async () => {
    total = (await service.call<{ total: number }>(service.team, 'GET', '/v3/lab_tests/markers?size=1')).body.total;
  });

  it('pages the catalogue with page/size upstream calls and the true total', async () => {
    expect(total).toBeGreaterThan(50);
    const first = await get<MarkerComplete[]>('/api/markers');
    expect(first.status).toBe(200);
    expect(first.headers['content-range']).toBe(`markers 0-24/${total}`);
    const second = await get<MarkerComplete[]>(`/api/markers${listQuery({ range: [25, 49] })}`);
    expect(second.headers['content-range']).toBe(`markers 25-49/${total}`);
    const ids = [...first.body, ...second.body].map((m) => m.id);
    expect(new Set(ids).size).toBe(50);
    // The same records as one 50-wide upstream page.
    const direct = await service.call<{ markers: MarkerComplete[] }>(service.team, 'GET', '/v3/lab_tests/markers?page=1&size=50');
    expect(ids).toEqual(direct.body.markers.map((m) => m.id));
    // An unaligned range is stitched from the pages that cover it.
    const odd = await get<MarkerComplete[]>(`/api/markers${listQuery({ range: [20, 29] })}`);
    expect(odd.body.map((m) => m.id)).toEqual(ids.slice(20, 30));
  });

  it('filters by lab_slug, q (name or test code) and lab_account_id', async () => {
    const labcorp = await get<MarkerComplete[]>(`/api/markers${listQuery({ filter: { lab_slug: 'labcorp' }, range: [0, 99] })}`);
    expect(labcorp.body.length).toBeGreaterThan(0);
    expect(labcorp.body.every((m) => m.lab_id === 2)).toBe(true);
    const tsh = await get<MarkerComplete[]>(`/api/markers${listQuery({ filter: { q: 'tsh', lab_slug: 'quest' } })}`);
    expect(tsh.body.map((m) => m.name)).toContain('TSH');
    expect(tsh.body.every((m) => m.lab_id === 1)).toBe(true);
    const labcorpAccount = accounts.find((a) => a.lab === 'labcorp')!;
    const byAccount = await get<MarkerComplete[]>(`/api/markers${listQuery({ filter: { lab_account_id: labcorpAccount.id }, range: [0, 99] })}`);
    expect(byAccount.body.map((m) => m.id)).toEqual(labcorp.body.map((m) => m.id));
    const none = await get<MarkerComplete[]>(`/api/markers${listQuery({ filter: { q: 'no-such-marker-anywhere' } })}`);
    expect(none.body).toEqual([]);
    expect(none.headers['content-range']).toBe('markers */0');
  });

  it('answers another team’s lab account as no markers, and a malformed filter with 400', async () => {
    const foreign = await get<MarkerComplete[]>(`/api/markers${listQuery({ filter: { lab_account_id: foreignAccount.id } })}`);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual([]);
    const bad = await bff.get(`/api/markers${listQuery({ filter: { lab_account_id: 'nope' } })}`, labOps);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/lab_account_id/);
  });

  it('lists in the catalogue’s own order only: other sorts are 400', async () => {
    for (const sort of [['name', 'ASC'], ['price', 'DESC'], ['id', 'DESC']]) {
      const r = await bff.get(`/api/markers${listQuery({ sort })}`, labOps);
      expect(r.status, JSON.stringify(sort)).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
  });

  it('getOne answers a marker with its expected results and LOINC codes; unknown ids are 404', async () => {
    const tsh = (await get<MarkerComplete[]>(`/api/markers${listQuery({ filter: { q: 'TSH', lab_slug: 'quest' } })}`)).body.find((m) => m.name === 'TSH')!;
    const r = await get<MarkerComplete>(`/api/markers/${tsh.id}`);
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(tsh.id);
    expect(r.body.expected_results.length).toBeGreaterThan(0);
    expect(r.body.expected_results[0]!.loinc?.code).toMatch(/^\d+-\d$/);
    for (const id of ['999999999', 'abc']) expect((await bff.get(`/api/markers/${id}`, labOps)).status, id).toBe(404);
  });

  it('getMany answers known marker ids', async () => {
    const some = (await get<MarkerComplete[]>(`/api/markers${listQuery({ range: [0, 2] })}`)).body;
    const r = await get<MarkerComplete[]>(`/api/markers${listQuery({ filter: { id: [some[2]!.id, some[0]!.id, 999_999_999] } })}`);
    expect(r.body.map((m) => m.id)).toEqual([some[2]!.id, some[0]!.id]);
  });
});

describe('lab-tests and labs', () => {
  it('lists the lab tests of a lab, and one by id', async () => {
    const r = await get<{ id: string; name: string; lab: { slug: string } }[]>(`/api/lab-tests${listQuery({ filter: { lab_slug: 'labcorp', status: 'active' }, range: [0, 99] })}`);
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThan(0);
    expect(r.body.every((t) => t.lab.slug === 'labcorp')).toBe(true);
    expect(r.headers['content-range']).toBe(`lab-tests 0-${r.body.length - 1}/${r.body.length}`);
    const one = await get<{ id: string }>(`/api/lab-tests/${r.body[0]!.id}`);
    expect(one.body.id).toBe(r.body[0]!.id);
    expect((await bff.get(`/api/lab-tests/${UNKNOWN_UUID}`, labOps)).status).toBe(404);
    expect((await bff.get(`/api/lab-tests${listQuery({ sort: ['method', 'ASC'] })}`, labOps)).status).toBe(400);
  });

  it('lists the labs', async () => {
    const r = await get<{ id: number; slug: string }[]>('/api/labs');
    expect(r.body.map((l) => l.slug).sort()).toEqual(['bioreference', 'labcorp', 'quest', 'sonora_quest']);
    expect(r.headers['content-range']).toBe('labs 0-3/4');
  });
});

describe('catalogue permissions', () => {
  it('lets admins, coordinators and lab operations read the catalogue; reviewers and unknown roles get 403', async () => {
    const urls = ['/api/lab-accounts', `/api/lab-accounts/${accounts[0]!.id}`, '/api/markers', '/api/lab-tests', '/api/labs'];
    const coordinator = await bff.login('coordinator');
    const admin = await bff.login('admin');
    const unknown = await bff.login('unknown');
    for (const url of urls) {
      for (const s of [labOps, coordinator, admin]) expect((await bff.get(url, s)).status, `${s.user.role} ${url}`).toBe(200);
      for (const s of [reviewer, unknown]) {
        const r = await bff.get(url, s);
        expect(r.status, `${s.user.role} ${url}`).toBe(403);
        expect(r.body.message).toMatch(/role/i);
      }
      expect((await bff.get(url, null)).status).toBe(401);
    }
  });
});

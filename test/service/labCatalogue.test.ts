import { beforeAll, describe, expect, it } from 'vitest';
import { labTests } from '../../server/service/db/schema';
import { ensureDemoLabAccounts, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { expect422, expectDetail, storeKinds, UNKNOWN_UUID, useService, type Answer, type Team } from './harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOINC = /^\d{1,7}-\d$/;
const PRICE = /^\d+\.\d{2}$/;

interface WireResult {
  id: number;
  name: string;
  slug: string;
  lab_id: number;
  provider_id: string;
  required: boolean;
  loinc: { id: number; name: string; slug: string; code: string; unit: string | null };
}
interface WireMarker {
  id: number;
  name: string;
  slug: string;
  lab_id: number;
  provider_id: string;
  type: string;
  unit: string | null;
  price: string;
  a_la_carte_enabled: boolean;
  common_tat_days: number;
  worst_case_tat_days: number;
  is_orderable: boolean;
  aoe: { questions: { id: number; code: string; type: string; required: boolean; sequence: number; answers: { id: number; code: string; value: string }[] }[] } | null;
  expected_results: WireResult[];
}
interface WireAccount {
  id: string;
  lab: string;
  status: string;
  delegated_flow: string;
  provider_account_id: string;
  account_name: string | null;
  default_clinical_notes: string | null;
  allowed_billing: Record<string, string[]>;
  team_id_allowlist: string[];
}
interface WireLabTest {
  id: string;
  slug: string;
  name: string;
  method: string;
  sample_type: string;
  price: number;
  status: string;
  is_active: boolean;
  fasting: boolean;
  auto_generated: boolean;
  lab: { id: number; slug: string };
  markers: (WireMarker & { expected_results?: unknown })[];
}

const LAB_SLUGS = ['quest', 'labcorp', 'bioreference', 'sonora_quest'];

describe.each(storeKinds)('lab catalogue (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let other: Team;
  let bare: Team;
  let accounts: WireAccount[];
  let otherAccounts: WireAccount[];
  let allMarkers: WireMarker[];
  const api = () => svc().api(team.apiKey);
  const accountOf = (lab: string) => accounts.find((a) => a.lab === lab)!;

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam('Lab team');
    other = await svc().createTeam('Other lab team');
    bare = await svc().createTeam('Team without lab accounts');
    expect(await ensureDemoLabAccounts(svc().db, team.teamId)).toBe(4);
    expect(await ensureDemoLabAccounts(svc().db, other.teamId)).toBe(4);
    accounts = (await api().get('/v3/lab_test/lab_account')).body.data;
    otherAccounts = (await svc().api(other.apiKey).get('/v3/lab_test/lab_account')).body.data;
    allMarkers = [];
    for (let page = 1; ; page++) {
      const r = await api().get(`/v3/lab_tests/markers?size=100&page=${page}`);
      expect(r.status).toBe(200);
      allMarkers.push(...r.body.markers);
      if (page >= r.body.pages) break;
    }
  });

  describe('GET /v3/lab_test/lab_account', () => {
    it('lists the team’s four accounts in lab order: three active, Sonora Quest pending', async () => {
      const r = await api().get('/v3/lab_test/lab_account');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['data']);
      expect(accounts.map((a) => [a.lab, a.status])).toEqual([
        ['quest', 'active'],
        ['labcorp', 'active'],
        ['bioreference', 'active'],
        ['sonora_quest', 'pending'],
      ]);
      for (const a of accounts) {
        expect(a.id).toMatch(UUID);
        expect(a.team_id_allowlist).toEqual([team.teamId]);
        expect(['order_delegated', 'result_delegated', 'fully_delegated', 'not_delegated']).toContain(a.delegated_flow);
        expect(a.provider_account_id.length).toBeGreaterThan(3);
        expect(a.account_name?.length).toBeGreaterThan(0);
        expect(Object.keys(a.allowed_billing).length).toBeGreaterThan(0);
        for (const [billing, states] of Object.entries(a.allowed_billing)) {
          expect(['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill']).toContain(billing);
          for (const s of states) expect(s).toMatch(/^[A-Z]{2}$/);
        }
        // Commercial insurance is never allowed where client billing is not.
        for (const s of a.allowed_billing.commercial_insurance ?? []) expect(a.allowed_billing.client_bill).toContain(s);
        expect((a.allowed_billing.commercial_insurance ?? []).length).toBeLessThan(a.allowed_billing.client_bill!.length);
      }
      expect(accounts.filter((a) => (a.default_clinical_notes ?? '').length > 0).length).toBeGreaterThanOrEqual(2);
      expect(accountOf('quest').default_clinical_notes).toBe('Fasting specimens preferred. Call 555-0100 with critical values.');
    });

    it('bills Sonora Quest only in AZ/NV/NM, BioReference only in the North East and Florida, Quest and Labcorp in most states', () => {
      const states = (lab: string) => new Set(Object.values(accountOf(lab).allowed_billing).flat());
      expect([...states('sonora_quest')].sort()).toEqual(['AZ', 'NM', 'NV']);
      expect([...states('bioreference')].every((s) => ['NY', 'NJ', 'CT', 'PA', 'FL'].includes(s))).toBe(true);
      expect(accountOf('quest').allowed_billing.client_bill!.length).toBeGreaterThan(40);
      expect(accountOf('labcorp').allowed_billing.client_bill!.length).toBeGreaterThan(40);
    });

    it('ensureDemoLabAccounts does nothing for a team that already has accounts', async () => {
      expect(await ensureDemoLabAccounts(svc().db, team.teamId)).toBe(0);
      expect(await ensureDemoLabAccounts(svc().db, UNKNOWN_UUID)).toBe(0);
      const r = await api().get('/v3/lab_test/lab_account');
      expect(r.body.data.map((a: WireAccount) => a.id)).toEqual(accounts.map((a) => a.id));
    });

    it('filters by status, case-insensitively; an unknown status is a 422 like an unknown body enum', async () => {
      const labsWith = async (status: string) => {
        const r = await api().get(`/v3/lab_test/lab_account?status=${encodeURIComponent(status)}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body.data.map((a: WireAccount) => a.lab);
      };
      expect(await labsWith('active')).toEqual(['quest', 'labcorp', 'bioreference']);
      expect(await labsWith('pending')).toEqual(['sonora_quest']);
      expect(await labsWith('PENDING')).toEqual(['sonora_quest']);
      expect(await labsWith('suspended')).toEqual([]);
      for (const unknown of ['ready_to_launch', '']) {
        const r = await api().get(`/v3/lab_test/lab_account?status=${unknown}`);
        expect(r.status).toBe(422);
        expect(r.body.detail[0].loc).toEqual(['query', 'status']);
      }
    });

    it('filters by lab_account_id; another team’s or an unknown id gives an empty list, never the account', async () => {
      const own = accountOf('labcorp');
      const r = await api().get(`/v3/lab_test/lab_account?lab_account_id=${own.id}`);
      expect(r.body.data).toEqual([own]);
      const mismatch = await api().get(`/v3/lab_test/lab_account?lab_account_id=${own.id}&status=pending`);
      expect(mismatch.body.data).toEqual([]);
      const foreign = await api().get(`/v3/lab_test/lab_account?lab_account_id=${otherAccounts[0]!.id}`);
      expect(foreign.status).toBe(200);
      expect(foreign.body).toEqual({ data: [] });
      const unknown = await api().get(`/v3/lab_test/lab_account?lab_account_id=${UNKNOWN_UUID}`);
      expect(unknown.body).toEqual({ data: [] });
      expect422(await api().get('/v3/lab_test/lab_account?lab_account_id=not-a-uuid'), ['query', 'lab_account_id']);
    });

    it('keeps teams apart and needs a key', async () => {
      const ownIds = new Set(accounts.map((a) => a.id));
      expect(otherAccounts).toHaveLength(4);
      expect(otherAccounts.some((a) => ownIds.has(a.id))).toBe(false);
      expect(otherAccounts.every((a) => a.team_id_allowlist[0] === other.teamId)).toBe(true);
      expect((await svc().api(bare.apiKey).get('/v3/lab_test/lab_account')).body).toEqual({ data: [] });
      expectDetail(await svc().inject({ method: 'GET', url: '/v3/lab_test/lab_account' }), 401);
    });

    it('refuses a status longer than 40 characters or carrying NUL with 422', async () => {
      expect422(await api().get(`/v3/lab_test/lab_account?status=${'x'.repeat(41)}`), ['query', 'status']);
      expect422(await api().get('/v3/lab_test/lab_account?status=act%00ive'), ['query', 'status']);
    });
  });

  describe('GET /v3/lab_tests/labs', () => {
    it('lists the four labs with stable ids, addresses, collection methods and sample types', async () => {
      const r = await api().get('/v3/lab_tests/labs');
      expect(r.status).toBe(200);
      expect(r.body.map((l: { id: number; slug: string }) => [l.id, l.slug])).toEqual([
        [1, 'quest'],
        [2, 'labcorp'],
        [3, 'bioreference'],
        [4, 'sonora_quest'],
      ]);
      for (const lab of r.body) {
        expect(Object.keys(lab).sort()).toEqual(['city', 'collection_methods', 'first_line_address', 'id', 'name', 'sample_types', 'slug', 'zipcode']);
        expect(lab.zipcode).toMatch(/^\d{5}$/);
        expect(lab.collection_methods.length).toBeGreaterThan(0);
        expect(lab.sample_types.length).toBeGreaterThan(0);
      }
      expect(r.body[0].name).toBe('Quest Diagnostics');
    });
  });

  describe('GET /v3/lab_tests/markers', () => {
    it('answers the first page of 50 by default, ordered by lab then name', async () => {
      const r = await api().get('/v3/lab_tests/markers');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['markers', 'page', 'pages', 'size', 'total']);
      expect(r.body.page).toBe(1);
      expect(r.body.size).toBe(50);
      expect(r.body.total).toBe(allMarkers.length);
      expect(r.body.pages).toBe(Math.ceil(allMarkers.length / 50));
      expect(r.body.markers).toEqual(allMarkers.slice(0, 50));
      const sorted = [...allMarkers].sort((a, b) => a.lab_id - b.lab_id || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
      expect(allMarkers.map((m) => m.id)).toEqual(sorted.map((m) => m.id));
    });

    it('offers 25 to 45 markers per lab, with stable ids, lab-specific codes and decimal-string prices', () => {
      for (let labId = 1; labId <= 4; labId++) {
        const mine = allMarkers.filter((m) => m.lab_id === labId);
        expect(mine.length).toBeGreaterThanOrEqual(25);
        expect(mine.length).toBeLessThanOrEqual(45);
        expect(new Set(mine.map((m) => m.provider_id)).size).toBe(mine.length);
        for (const m of mine) {
          expect(Math.floor(m.id / 1000)).toBe(labId);
          expect(m.price).toMatch(PRICE);
          expect(['biomarker', 'panel']).toContain(m.type);
          expect(m.slug).toMatch(/^[a-z0-9_]+$/);
          expect(m.common_tat_days).toBeGreaterThan(0);
          expect(m.worst_case_tat_days).toBeGreaterThanOrEqual(m.common_tat_days);
          expect(m.is_orderable).toBe(true);
          if (m.type === 'panel') expect(m.unit).toBeNull();
        }
        const names = mine.map((m) => m.name);
        for (const n of ['Glucose', 'Hemoglobin A1c', 'TSH', 'Lipid Panel', 'Comprehensive Metabolic Panel', 'CBC with Differential/Platelet']) {
          expect(names).toContain(n);
        }
      }
      expect(allMarkers.find((m) => m.id === 1001)?.provider_id).toBe('483');
      expect(allMarkers.find((m) => m.id === 2001)?.provider_id).toBe('001818');
    });

    it('gives every marker expected results with real LOINC codes', () => {
      for (const m of allMarkers) {
        expect(m.expected_results.length, m.name).toBeGreaterThan(0);
        for (const res of m.expected_results) {
          expect(Object.keys(res).sort()).toEqual(['id', 'lab_id', 'loinc', 'name', 'provider_id', 'required', 'slug']);
          expect(res.lab_id).toBe(m.lab_id);
          expect(res.loinc.code).toMatch(LOINC);
          expect(res.loinc.id).toBe(Number(res.loinc.code.replace('-', '')));
          expect(res.loinc.name.length).toBeGreaterThan(5);
        }
        expect(new Set(m.expected_results.map((x) => x.id)).size).toBe(m.expected_results.length);
        expect(m.expected_results.some((x) => x.required)).toBe(true);
      }
      const codes = (labId: number, name: string) =>
        allMarkers.find((m) => m.lab_id === labId && m.name === name)!.expected_results.map((x) => x.loinc.code);
      expect(codes(1, 'Glucose')).toEqual(['2345-7']);
      expect(codes(1, 'Hemoglobin A1c')).toContain('4548-4');
      expect(codes(2, 'TSH')).toEqual(['3016-3']);
      expect(codes(1, 'Free T4')).toEqual(['3024-7']);
      expect(codes(1, 'Vitamin D, 25-Hydroxy')).toEqual(expect.arrayContaining(['62292-8', '1989-3']));
      expect(codes(3, 'Ferritin')).toEqual(['2276-4']);
      expect(codes(1, 'PSA, Total')).toEqual(['2857-1']);
      expect(codes(1, 'hs-CRP')).toEqual(['30522-7']);
      expect(codes(4, 'Lipid Panel')).toEqual(expect.arrayContaining(['2093-3', '2085-9', '13457-7', '2571-8']));
      expect(codes(2, 'Comprehensive Metabolic Panel')).toEqual(
        expect.arrayContaining(['2345-7', '2160-0', '1742-6', '1920-8', '2951-2', '2823-3', '17861-6', '1751-7', '2885-2']),
      );
      expect(codes(1, 'CBC with Differential/Platelet')).toEqual(expect.arrayContaining(['718-7', '6690-2', '777-3', '789-8', '4544-3']));
    });

    it('asks AoE questions on a few markers, such as fasting for glucose', () => {
      const glucose = allMarkers.find((m) => m.id === 1001)!;
      expect(glucose.aoe?.questions).toHaveLength(1);
      const q = glucose.aoe!.questions[0]!;
      expect(q).toMatchObject({ code: 'FASTING', type: 'choice', required: true, sequence: 1 });
      expect(q.answers.map((a) => a.code)).toEqual(['Y', 'N']);
      const withAoe = allMarkers.filter((m) => m.aoe);
      expect(withAoe.length).toBeGreaterThan(4);
      expect(withAoe.length).toBeLessThan(allMarkers.length / 3);
      const questionIds = withAoe.flatMap((m) => m.aoe!.questions.map((x) => x.id));
      expect(new Set(questionIds).size).toBe(questionIds.length);
    });

    it('pages: size 1 and 100, the last partial page, pages past the end', async () => {
      const one = await api().get('/v3/lab_tests/markers?size=1&page=3');
      expect(one.body).toMatchObject({ page: 3, size: 1, total: allMarkers.length, pages: allMarkers.length });
      expect(one.body.markers).toEqual([allMarkers[2]]);
      const hundred = await api().get('/v3/lab_tests/markers?size=100');
      expect(hundred.body.markers).toHaveLength(100);
      const lastPage = Math.ceil(allMarkers.length / 100);
      const last = await api().get(`/v3/lab_tests/markers?size=100&page=${lastPage}`);
      expect(last.body.markers).toEqual(allMarkers.slice((lastPage - 1) * 100));
      for (const page of [lastPage + 1, 1_000_000, 1e15]) {
        const beyond = await api().get(`/v3/lab_tests/markers?size=100&page=${page}`);
        expect(beyond.status).toBe(200);
        expect(beyond.body).toEqual({ markers: [], total: allMarkers.length, page, size: 100, pages: lastPage });
      }
    });

    it('refuses size 0, size 101, page 0 and non-numbers with 422', async () => {
      expect422(await api().get('/v3/lab_tests/markers?size=0'), ['query', 'size']);
      expect422(await api().get('/v3/lab_tests/markers?size=101'), ['query', 'size']);
      expect422(await api().get('/v3/lab_tests/markers?size=abc'), ['query', 'size']);
      expect422(await api().get('/v3/lab_tests/markers?page=0'), ['query', 'page']);
      expect422(await api().get('/v3/lab_tests/markers?page=-1'), ['query', 'page']);
      expect422(await api().get('/v3/lab_tests/markers?page=1.5'), ['query', 'page']);
      expect422(await api().get('/v3/lab_tests/markers?lab_id=abc'), ['query', 'lab_id', 0]);
      expect422(await api().get('/v3/lab_tests/markers?a_la_carte_enabled=maybe'), ['query', 'a_la_carte_enabled']);
      expect422(await api().get('/v3/lab_tests/markers?name=a%00b'), ['query', 'name']);
    });

    it('filters by lab_slug; an unknown slug is an empty page', async () => {
      for (const [i, slug] of LAB_SLUGS.entries()) {
        const r = await api().get(`/v3/lab_tests/markers?lab_slug=${slug}&size=100`);
        const expected = allMarkers.filter((m) => m.lab_id === i + 1);
        expect(r.body.total).toBe(expected.length);
        expect(r.body.markers).toEqual(expected);
      }
      const unknown = await api().get('/v3/lab_tests/markers?lab_slug=ayumetrix');
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({ markers: [], total: 0, page: 1, size: 50, pages: 0 });
    });

    it('filters by repeated lab_id, combined with lab_slug by AND', async () => {
      const r = await api().get('/v3/lab_tests/markers?lab_id=1&lab_id=3&size=100');
      const expected = allMarkers.filter((m) => m.lab_id === 1 || m.lab_id === 3);
      expect(r.body.total).toBe(expected.length);
      expect(new Set(r.body.markers.map((m: WireMarker) => m.lab_id))).toEqual(new Set([1, 3]));
      const single = await api().get('/v3/lab_tests/markers?lab_id=2&size=100');
      expect(single.body.total).toBe(allMarkers.filter((m) => m.lab_id === 2).length);
      expect((await api().get('/v3/lab_tests/markers?lab_id=99')).body.total).toBe(0);
      expect((await api().get('/v3/lab_tests/markers?lab_slug=quest&lab_id=2')).body.total).toBe(0);
      expect((await api().get('/v3/lab_tests/markers?lab_slug=quest&lab_id=1&lab_id=2')).body.total).toBe(allMarkers.filter((m) => m.lab_id === 1).length);
    });

    it('filters by name or test code, case-insensitively, with LIKE wildcards taken literally', async () => {
      const r = await api().get('/v3/lab_tests/markers?name=GLUC&size=100');
      expect(r.body.total).toBeGreaterThanOrEqual(4);
      expect(r.body.markers.every((m: WireMarker) => /gluc/i.test(m.name) || /gluc/i.test(m.provider_id))).toBe(true);
      const byCode = await api().get('/v3/lab_tests/markers?name=001453');
      expect(byCode.body.markers.map((m: WireMarker) => [m.lab_id, m.name])).toEqual([[2, 'Hemoglobin A1c']]);
      const panel = await api().get('/v3/lab_tests/markers?name=lipid%20panel&lab_slug=labcorp');
      expect(panel.body.markers.map((m: WireMarker) => m.provider_id)).toEqual(['303756']);
      for (const wildcard of ['%25', '_', '%5C']) {
        expect((await api().get(`/v3/lab_tests/markers?name=${wildcard}`)).body.total).toBe(0);
      }
      expect((await api().get('/v3/lab_tests/markers?name=')).body.total).toBe(allMarkers.length);
    });

    it('filters by a_la_carte_enabled: panels and most biomarkers are orderable alone, calculated ones are not', async () => {
      const no = await api().get('/v3/lab_tests/markers?a_la_carte_enabled=false&size=100');
      const yes = await api().get('/v3/lab_tests/markers?a_la_carte_enabled=true&size=100');
      expect(no.body.total + yes.body.total).toBe(allMarkers.length);
      expect(no.body.total).toBeGreaterThan(0);
      expect(no.body.total).toBeLessThan(yes.body.total / 4);
      expect(no.body.markers.every((m: WireMarker) => m.a_la_carte_enabled === false && m.type === 'biomarker')).toBe(true);
      expect(no.body.markers.map((m: WireMarker) => m.name)).toContain('LDL Cholesterol (calculated)');
      expect(allMarkers.filter((m) => m.type === 'panel').every((m) => m.a_la_carte_enabled)).toBe(true);
    });

    it('filters by lab_account_id: the team’s own account limits to its lab (a pending one too); another team’s is 404', async () => {
      const sonora = accountOf('sonora_quest');
      const r = await api().get(`/v3/lab_tests/markers?lab_account_id=${sonora.id}&size=100`);
      expect(r.status).toBe(200);
      expect(r.body.markers).toEqual(allMarkers.filter((m) => m.lab_id === 4));
      const labcorp = accountOf('labcorp');
      expect((await api().get(`/v3/lab_tests/markers?lab_account_id=${labcorp.id}&lab_slug=quest`)).body.total).toBe(0);
      expect((await api().get(`/v3/lab_tests/markers?lab_account_id=${labcorp.id}&lab_slug=labcorp`)).body.total).toBe(
        allMarkers.filter((m) => m.lab_id === 2).length,
      );
      const foreign = await api().get(`/v3/lab_tests/markers?lab_account_id=${otherAccounts[0]!.id}`);
      expectDetail(foreign, 404);
      expect(foreign.body.detail).toBe('Lab account not found');
      const unknown = await api().get(`/v3/lab_tests/markers?lab_account_id=${UNKNOWN_UUID}`);
      expect(unknown.body).toEqual(foreign.body);
      expect422(await api().get('/v3/lab_tests/markers?lab_account_id=nope'), ['query', 'lab_account_id']);
    });
  });

  describe('GET /v3/lab_tests and /v3/lab_tests/{lab_test_id}', () => {
    let shared: WireLabTest[];
    let ownManualId: string;
    let ownAutoId: string;
    let foreignId: string;

    const insertTeamTest = async (teamId: string, name: string, autoGenerated: boolean) => {
      const [row] = await svc()
        .db.insert(labTests)
        .values({
          teamId,
          labId: 2,
          slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
          name,
          sampleType: 'serum',
          method: 'walk_in_test',
          price: 42.5,
          markerIds: [2104, 2002],
          autoGenerated,
          fasting: true,
        })
        .returning({ id: labTests.id });
      return row!.id;
    };

    beforeAll(async () => {
      ownManualId = await insertTeamTest(team.teamId, 'Team Cardio Bundle', false);
      ownAutoId = await insertTeamTest(team.teamId, 'Auto order set', true);
      foreignId = await insertTeamTest(other.teamId, 'Other Team Bundle', false);
      const r = await svc().api(bare.apiKey).get('/v3/lab_tests');
      expect(r.status).toBe(200);
      shared = r.body;
    });

    it('lists the shared catalogue: common panels at every lab, by several collection methods', () => {
      expect(shared.length).toBeGreaterThanOrEqual(16);
      for (const slug of LAB_SLUGS) {
        const names = shared.filter((t) => t.lab.slug === slug).map((t) => t.name);
        expect(names).toContain('Essential Metabolic Health');
        expect(names).toContain('Annual Wellness');
        expect(names).toContain('Thyroid Check');
      }
      expect(new Set(shared.map((t) => t.method))).toEqual(new Set(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']));
      for (const t of shared) {
        expect(t.id).toMatch(UUID);
        expect(t.status).toBe('active');
        expect(t.is_active).toBe(true);
        expect(t.auto_generated).toBe(false);
        expect(t.price).toBeGreaterThan(0);
        expect(t.markers.length).toBeGreaterThan(0);
        for (const m of t.markers) {
          expect(m.lab_id).toBe(t.lab.id);
          expect(m).not.toHaveProperty('expected_results');
        }
      }
      // Ordered by lab, then name.
      const keys = shared.map((t) => [t.lab.id, t.name] as const);
      expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)));
    });

    it('adds the team’s own manual lab tests, never another team’s', async () => {
      const r = await api().get('/v3/lab_tests');
      const ids = r.body.map((t: WireLabTest) => t.id);
      expect(ids).toContain(ownManualId);
      expect(ids).not.toContain(ownAutoId);
      expect(ids).not.toContain(foreignId);
      expect(ids.length).toBe(shared.length + 1);
      const own = r.body.find((t: WireLabTest) => t.id === ownManualId);
      expect(own.markers.map((m: WireMarker) => m.name)).toEqual(['Lipid Panel', 'Hemoglobin A1c']);
      expect(own.lab.slug).toBe('labcorp');
    });

    it('filters by generation_method, lab_slug, collection_method, status and name', async () => {
      const ids = async (qs: string) => {
        const r = await api().get(`/v3/lab_tests?${qs}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body as WireLabTest[];
      };
      expect((await ids('generation_method=auto')).map((t) => t.id)).toEqual([ownAutoId]);
      expect((await ids('generation_method=all')).length).toBe(shared.length + 2);
      const labcorp = await ids('lab_slug=labcorp');
      expect(labcorp.every((t) => t.lab.slug === 'labcorp')).toBe(true);
      expect(labcorp.map((t) => t.id)).toContain(ownManualId);
      expect(await ids('lab_slug=nowhere')).toEqual([]);
      const kits = await ids('collection_method=testkit');
      expect(kits.length).toBeGreaterThan(0);
      expect(kits.every((t) => t.method === 'testkit')).toBe(true);
      expect((await api().get('/v3/lab_tests?collection_method=by_pigeon')).status).toBe(422);
      expect((await ids('status=active')).length).toBe(shared.length + 1);
      expect((await ids('status=ACTIVE')).length).toBe(shared.length + 1);
      expect(await ids('status=pending_approval')).toEqual([]);
      const thyroid = await ids('name=thyroid');
      expect(thyroid.map((t) => t.name)).toEqual(LAB_SLUGS.map(() => 'Thyroid Check'));
      expect(await ids('name=%25')).toEqual([]);
      expect422(await api().get('/v3/lab_tests?generation_method=sometimes'), ['query', 'generation_method']);
      expect422(await api().get('/v3/lab_tests?order_key=name'), ['query', 'order_key']);
    });

    it('orders by price, created_at or updated_at in either direction', async () => {
      const prices = async (dir: string) => ((await api().get(`/v3/lab_tests?order_key=price&order_direction=${dir}`)).body as WireLabTest[]).map((t) => t.price);
      const asc = await prices('asc');
      expect(asc).toEqual([...asc].sort((a, b) => a - b));
      const desc = await prices('desc');
      expect(desc).toEqual([...asc].sort((a, b) => b - a));
      const newest = await api().get('/v3/lab_tests?order_key=created_at&order_direction=desc');
      expect(newest.body[0].id).toBe(ownManualId);
    });

    it('gets a shared lab test or the team’s own; another team’s or an unknown one is 404', async () => {
      const first = shared[0]!;
      const r = await api().get(`/v3/lab_tests/${first.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(first);
      expect((await api().get(`/v3/lab_tests/${ownAutoId}`)).body.id).toBe(ownAutoId);
      const foreign = await api().get(`/v3/lab_tests/${foreignId}`);
      expectDetail(foreign, 404);
      expect(foreign.body.detail).toBe('Lab test not found');
      expect((await api().get(`/v3/lab_tests/${UNKNOWN_UUID}`)).body).toEqual(foreign.body);
      expect422(await api().get('/v3/lab_tests/not-a-uuid'), ['path', 'lab_test_id']);
    });

    it('pages through a lab test’s markers, complete with expected results', async () => {
      const annual = shared.find((t) => t.lab.slug === 'quest' && t.name === 'Annual Wellness')!;
      const r = await api().get(`/v3/lab_tests/${annual.id}/markers`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ total: annual.markers.length, page: 1, size: 50, pages: 1 });
      expect(r.body.markers.map((m: WireMarker) => m.id)).toEqual(annual.markers.map((m) => m.id));
      for (const m of r.body.markers as WireMarker[]) expect(m).toEqual(allMarkers.find((x) => x.id === m.id));
      const second = await api().get(`/v3/lab_tests/${annual.id}/markers?size=2&page=2`);
      expect(second.body.markers.map((m: WireMarker) => m.id)).toEqual(annual.markers.slice(2, 4).map((m) => m.id));
      expect(second.body.pages).toBe(Math.ceil(annual.markers.length / 2));
      expect((await api().get(`/v3/lab_tests/${annual.id}/markers?page=9`)).body.markers).toEqual([]);
      expect422(await api().get(`/v3/lab_tests/${annual.id}/markers?size=101`), ['query', 'size']);
      expectDetail(await api().get(`/v3/lab_tests/${foreignId}/markers`), 404);
    });
  });

  describe('OpenAPI', () => {
    it('documents the catalogue operations with the API key', async () => {
      const r = await svc().inject({ method: 'GET', url: '/openapi.json' });
      const paths = r.body.paths as Record<string, Record<string, { summary?: string; description?: string; security?: unknown[] }>>;
      for (const [path, method] of [
        ['/v3/lab_test/lab_account', 'get'],
        ['/v3/lab_tests/markers', 'get'],
        ['/v3/lab_tests/labs', 'get'],
        ['/v3/lab_tests', 'get'],
        ['/v3/lab_tests/{lab_test_id}', 'get'],
        ['/v3/lab_tests/{lab_test_id}/markers', 'get'],
      ] as const) {
        const op = paths[path]?.[method];
        expect(op, `${method} ${path}`).toBeDefined();
        expect(op!.summary?.length).toBeGreaterThan(0);
        expect(op!.security).toEqual([{ apiKey: [] }]);
      }
      expect(paths['/v3/lab_tests/markers']!.get!.description).toMatch(/lab_account_id/);
    });
  });

  it('answers 401 without a key on every catalogue operation', async () => {
    for (const url of ['/v3/lab_tests/markers', '/v3/lab_tests/labs', '/v3/lab_tests', `/v3/lab_tests/${UNKNOWN_UUID}`]) {
      const r: Answer = await svc().inject({ method: 'GET', url });
      expectDetail(r, 401);
    }
  });
});

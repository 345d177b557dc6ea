import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobs, labTests, orders, webhookOutbox } from '../../server/service/db/schema';
import { expect422, expectDetail, storeKinds, UNKNOWN_UUID, useService } from './harness';
import {
  ALL_STATES,
  createBody,
  importBody,
  insertCatalogue,
  insertLabAccount,
  M,
  patientAddress,
  teamWithUser,
  type Catalogue,
  type OrderTeam,
} from './orderFixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe.each(storeKinds)('order creation and import (%s)', (kind) => {
  const svc = useService(kind);
  let cat: Catalogue;
  /** quest A (oldest), quest B, labcorp, sonora_quest PENDING, bioreference SUSPENDED */
  let main: OrderTeam;
  let acc: { questA: string; questB: string; labcorp: string; sonoraPending: string; bioSuspended: string };
  let other: OrderTeam;
  let otherQuest: string;
  const api = (t: OrderTeam = main) => svc().api(t.team.apiKey);

  beforeAll(async () => {
    cat = await insertCatalogue(svc().db);
    main = await teamWithUser(svc(), 'pt-main-1');
    const db = svc().db;
    acc = {
      questA: await insertLabAccount(db, main.team.teamId, { lab: 'quest', name: 'Quest A', defaultClinicalNotes: 'Fasting 8h.' }),
      questB: await insertLabAccount(db, main.team.teamId, { lab: 'quest', name: 'Quest B' }),
      labcorp: await insertLabAccount(db, main.team.teamId, { lab: 'labcorp' }),
      sonoraPending: await insertLabAccount(db, main.team.teamId, { lab: 'sonora_quest', status: 'pending' }),
      bioSuspended: await insertLabAccount(db, main.team.teamId, { lab: 'bioreference', status: 'suspended' }),
    };
    other = await teamWithUser(svc(), 'pt-other-1');
    otherQuest = await insertLabAccount(db, other.team.teamId, { lab: 'quest' });
  });

  async function create(body: Record<string, unknown>, t: OrderTeam = main, path = '/v3/order/create') {
    return api(t).post(path, body);
  }

  describe('create', () => {
    it('answers {order, status, message} with the order received.ordered, and writes event, outbox and lifecycle job', async () => {
      const before = Date.now();
      const r = await create(createBody(main.userId, cat.questPanel));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['message', 'order', 'status']);
      expect(r.body.status).toBe('success');
      expect(typeof r.body.message).toBe('string');
      const o = r.body.order;
      expect(o.id).toMatch(UUID);
      expect(o.user_id).toBe(main.userId);
      expect(o.team_id).toBe(main.team.teamId);
      expect(o.status).toBe('received');
      expect(o.low_level_status).toBe('ordered');
      expect(o.origin).toBe('created');
      expect(o.billing_type).toBe('client_bill');
      expect(o.details.type).toBe('walk_in_test');
      expect(o.lab_test.id).toBe(cat.questPanel);
      expect(o.lab_test.lab.slug).toBe('quest');
      expect(o.lab_account_id).toBe(acc.questA);
      expect(o.has_abn).toBe(false);
      expect(o.created_at).toMatch(ISO_UTC);
      expect(o.events).toHaveLength(1);
      expect(o.events[0].status).toBe('received.walk_in_test.ordered');
      expect(o.last_event.status).toBe('received.walk_in_test.ordered');
      expect(o.physician).toEqual({ first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' });

      const got = await api().get(`/v3/order/${o.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(o);

      const outbox = await svc()
        .db.select()
        .from(webhookOutbox)
        .where(and(eq(webhookOutbox.teamId, main.team.teamId), sql`${webhookOutbox.payload}->'data'->>'id' = ${o.id}`));
      expect(outbox.map((e) => e.eventType)).toEqual(['labtest.order.created']);
      expect(outbox[0]!.payload).toMatchObject({ event_type: 'labtest.order.created', user_id: main.userId, client_user_id: 'pt-main-1', team_id: main.team.teamId });

      const job = await svc()
        .db.select()
        .from(jobs)
        .where(sql`${jobs.payload}->>'order_id' = ${o.id}`);
      expect(job).toHaveLength(1);
      expect(job[0]!.kind).toBe('order.advance');
      expect(job[0]!.runAt.getTime()).toBeGreaterThan(before);
    });

    it('is served at POST /v3/order too; collection_method defaults to the lab test’s method', async () => {
      const r = await create(createBody(main.userId, cat.questKit), main, '/v3/order');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.order.details.type).toBe('testkit');
      expect(r.body.order.events[0].status).toBe('received.testkit.ordered');
      expect(r.body.order.shipping_details).toMatchObject({ first_line: '12 Analytical Engine Rd', zip: '10001' });
    });

    it('takes an explicit collection method and billing type, and refuses a method the lab does not offer', async () => {
      const r = await create(createBody(main.userId, cat.questPanel, { collection_method: 'at_home_phlebotomy', billing_type: 'patient_bill' }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.order.details.type).toBe('at_home_phlebotomy');
      expect(r.body.order.billing_type).toBe('patient_bill');
      const bad = await create(createBody(main.userId, cat.labcorpPanel, { collection_method: 'testkit' }));
      expect(expect422(bad, ['body', 'collection_method'])[0]!.msg).toMatch(/labcorp/);
    });

    it('answers 404 for an unknown user and for another team’s user', async () => {
      expectDetail(await create(createBody(UNKNOWN_UUID, cat.questPanel)), 404);
      expectDetail(await create(createBody(other.userId, cat.questPanel)), 404);
    });

    it('needs lab_test_id or an order set', async () => {
      const body = createBody(main.userId, undefined);
      expect422(await create(body), ['body', 'lab_test_id']);
    });
  });

  describe('limits', () => {
    it('clinical_notes: 1000 characters are kept, 1001 are 422 at body.clinical_notes', async () => {
      const notes = 'n'.repeat(999) + 'é';
      const ok = await create(createBody(main.userId, cat.questPanel, { clinical_notes: notes }));
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.order.clinical_notes).toBe(notes);
      expect422(await create(createBody(main.userId, cat.questPanel, { clinical_notes: 'n'.repeat(1001) })), ['body', 'clinical_notes']);
    });

    it('access_notes: 1000 characters are kept, 1001 are 422 at body.patient_address.access_notes', async () => {
      const notes = 'Gate 4471#, park behind the bakery. '.repeat(40).slice(0, 1000);
      const ok = await create(createBody(main.userId, cat.questPanel, { patient_address: patientAddress({ access_notes: notes }) }));
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.order.patient_address.access_notes).toBe(notes);
      const bad = await create(createBody(main.userId, cat.questPanel, { patient_address: patientAddress({ access_notes: notes + 'x' }) }));
      expect422(bad, ['body', 'patient_address', 'access_notes']);
    });

    it('zip: five digits, optionally a hyphen and four more', async () => {
      for (const zip of ['10001', '10001-1234']) {
        const r = await create(createBody(main.userId, cat.questPanel, { patient_address: patientAddress({ zip }) }));
        expect(r.status, zip).toBe(200);
      }
      for (const zip of ['1000', '100011', '10001-12', '10001-12345', 'abcde', '100011234', '10001 1234', '']) {
        expect422(await create(createBody(main.userId, cat.questPanel, { patient_address: patientAddress({ zip }) })), ['body', 'patient_address', 'zip']);
      }
    });
  });

  describe('lab tests and order sets', () => {
    it('refuses unknown and inactive lab tests', async () => {
      const unknown = expect422(await create(createBody(main.userId, UNKNOWN_UUID)), ['body', 'lab_test_id']);
      expect(unknown[0]!.msg).toContain(UNKNOWN_UUID);
      expect422(await create(createBody(main.userId, cat.questInactive)), ['body', 'lab_test_id']);
    });

    it('builds an auto-generated team lab test from lab tests and add-on markers, and reuses it', async () => {
      const order_set = { lab_test_ids: [cat.questPanel], add_on: { marker_ids: [M.questA1c] } };
      const r = await create(createBody(main.userId, undefined, { order_set }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const test = r.body.order.lab_test;
      expect(test.id).not.toBe(cat.questPanel);
      expect(test.auto_generated).toBe(true);
      expect(test.lab.slug).toBe('quest');
      expect(test.markers.map((m: { id: number }) => m.id).sort()).toEqual([M.questGlucose, M.questLipids, M.questA1c].sort());
      expect(r.body.order.details.type).toBe('walk_in_test');
      expect(r.body.order.lab_account_id).toBe(acc.questA);
      const [row] = await svc().db.select().from(labTests).where(eq(labTests.id, test.id));
      expect(row!.teamId).toBe(main.team.teamId);

      const again = await create(createBody(main.userId, undefined, { order_set: { lab_test_ids: [cat.questPanel], add_on: { marker_ids: [M.questA1c] } } }));
      expect(again.body.order.lab_test.id).toBe(test.id);
      // Another team never sees this team's auto-generated test.
      expect422(await create(createBody(other.userId, test.id), other), ['body', 'lab_test_id']);
    });

    it('resolves add-on markers by provider id within the order’s lab', async () => {
      const r = await create(createBody(main.userId, undefined, { order_set: { add_on: { marker_ids: [M.questGlucose], provider_ids: ['FXQ-A1C'] } } }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.order.lab_test.markers.map((m: { id: number }) => m.id).sort()).toEqual([M.questGlucose, M.questA1c].sort());
      const bad = await create(createBody(main.userId, undefined, { order_set: { add_on: { marker_ids: [M.questGlucose], provider_ids: ['NOPE-1'] } } }));
      expect(expect422(bad, ['body', 'order_set', 'add_on', 'provider_ids'])[0]!.msg).toContain('NOPE-1');
    });

    it('answers 422 naming unknown lab tests and markers', async () => {
      const bad = await create(createBody(main.userId, undefined, { order_set: { lab_test_ids: [cat.questPanel, UNKNOWN_UUID] } }));
      expect(expect422(bad, ['body', 'order_set', 'lab_test_ids'])[0]!.msg).toContain(UNKNOWN_UUID);
      const badMarkers = await create(createBody(main.userId, undefined, { order_set: { add_on: { marker_ids: [M.questGlucose, 123456789, 987654321] } } }));
      const msg = expect422(badMarkers, ['body', 'order_set', 'add_on', 'marker_ids'])[0]!.msg;
      expect(msg).toContain('123456789');
      expect(msg).toContain('987654321');
    });

    it('refuses markers that cannot be ordered', async () => {
      const r = await create(createBody(main.userId, undefined, { order_set: { add_on: { marker_ids: [M.questNotOrderable] } } }));
      expect(expect422(r, ['body', 'order_set', 'add_on', 'marker_ids'])[0]!.msg).toContain('Fixture Retired Test');
    });

    it('refuses an order set spanning labs, naming what belongs to which lab', async () => {
      const r = await create(createBody(main.userId, undefined, { order_set: { lab_test_ids: [cat.questPanel], add_on: { marker_ids: [M.labcorpTsh] } } }));
      const msg = expect422(r, ['body', 'order_set'])[0]!.msg;
      expect(msg).toContain('Fixture Metabolic Panel');
      expect(msg).toContain('Fixture LC TSH');
    });

    it('refuses lab_test_id together with order set tests', async () => {
      expect422(await create(createBody(main.userId, cat.questPanel, { order_set: { add_on: { marker_ids: [M.questA1c] } } })), ['body', 'order_set']);
    });
  });

  describe('lab accounts', () => {
    it('uses the given account and records it', async () => {
      const r = await create(createBody(main.userId, cat.questPanel, { lab_account_id: acc.questB }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.order.lab_account_id).toBe(acc.questB);
      const viaSet = await create(createBody(main.userId, undefined, { order_set: { lab_test_ids: [cat.questPanel], lab_account_id: acc.questB } }));
      expect(viaSet.status, JSON.stringify(viaSet.body)).toBe(200);
      expect(viaSet.body.order.lab_account_id).toBe(acc.questB);
      expect(viaSet.body.order.lab_test.id).toBe(cat.questPanel);
    });

    it('answers 422 "unknown lab account" for an unknown id and for another team’s account', async () => {
      for (const id of [UNKNOWN_UUID, otherQuest]) {
        const detail = expect422(await create(createBody(main.userId, cat.questPanel, { lab_account_id: id })), ['body', 'lab_account_id']);
        expect(detail[0]!.msg).toMatch(/unknown lab account/);
      }
      expect422(
        await create(createBody(main.userId, undefined, { order_set: { lab_test_ids: [cat.questPanel], lab_account_id: otherQuest } })),
        ['body', 'order_set', 'lab_account_id'],
      );
    });

    it('answers 422 listing the panels and markers that are not of the given account’s lab', async () => {
      const r = await create(
        createBody(main.userId, undefined, {
          lab_account_id: acc.labcorp,
          order_set: { lab_test_ids: [cat.questPanel, cat.labcorpPanel], add_on: { marker_ids: [M.questA1c, M.labcorpTsh] } },
        }),
      );
      const msg = expect422(r, ['body', 'lab_account_id'])[0]!.msg;
      expect(msg).toContain('Fixture Metabolic Panel');
      expect(msg).toContain(cat.questPanel);
      expect(msg).toContain('Fixture HbA1c');
      expect(msg).toContain(String(M.questA1c));
      expect(msg).not.toContain('Fixture LC Thyroid Panel');
      expect(msg).not.toContain('Fixture LC TSH');
      const single = await create(createBody(main.userId, cat.questPanel, { lab_account_id: acc.labcorp }));
      expect(expect422(single, ['body', 'lab_account_id'])[0]!.msg).toContain('Fixture Metabolic Panel');
    });

    it('refuses a pending account on create, pointing at import, and a suspended one', async () => {
      const pending = await create(createBody(main.userId, cat.sonoraPanel, { lab_account_id: acc.sonoraPending }));
      const msg = expect422(pending, ['body', 'lab_account_id'])[0]!.msg;
      expect(msg).toMatch(/pending/);
      expect(msg).toMatch(/not active/);
      expect(msg).toMatch(/import/);
      // Omitted: the pending account is not picked either.
      expect(expect422(await create(createBody(main.userId, cat.sonoraPanel)), ['body', 'lab_account_id'])[0]!.msg).toMatch(/sonora_quest/);
      const suspended = await create(createBody(main.userId, undefined, { lab_account_id: acc.bioSuspended, order_set: { add_on: { marker_ids: [M.questGlucose] } } }));
      expect(expect422(suspended, ['body', 'lab_account_id'])[0]!.msg).toMatch(/suspended/);
    });

    it('refuses an account in a status it does not know (the status enum may grow), on create and import', async () => {
      const t = await teamWithUser(svc());
      const odd = await insertLabAccount(svc().db, t.team.teamId, { lab: 'quest', status: 'ready_to_launch' });
      const r = await create(createBody(t.userId, cat.questPanel, { lab_account_id: odd }), t);
      expect(expect422(r, ['body', 'lab_account_id'])[0]!.msg).toMatch(/ready_to_launch, not active/);
      expect422(await create(createBody(t.userId, cat.questPanel), t), ['body', 'lab_account_id']);
      const imported = await api(t).post('/v3/order/import', importBody(t.userId, { order_set: { lab_test_ids: [cat.questPanel] }, lab_account_id: odd }));
      expect422(imported, ['body', 'lab_account_id']);
    });

    it('omitted: picks the first active account of the lab whose allowed billing covers the state', async () => {
      const t = await teamWithUser(svc());
      const db = svc().db;
      const caOnly = await insertLabAccount(db, t.team.teamId, { lab: 'quest', allowedBilling: { client_bill: ['CA'] }, createdAt: new Date('2025-01-01T00:00:00Z') });
      const ny = await insertLabAccount(db, t.team.teamId, {
        lab: 'quest',
        allowedBilling: { client_bill: ['NY', 'NJ'], commercial_insurance: ['NY'] },
        createdAt: new Date('2025-01-02T00:00:00Z'),
      });
      await insertLabAccount(db, t.team.teamId, { lab: 'quest', status: 'suspended', allowedBilling: { patient_bill: ALL_STATES }, createdAt: new Date('2024-01-01T00:00:00Z') });
      await insertLabAccount(db, t.team.teamId, { lab: 'labcorp', allowedBilling: { patient_bill: ALL_STATES } });

      const inCa = await create(createBody(t.userId, cat.questPanel, { patient_address: patientAddress({ state: 'CA' }) }), t);
      expect(inCa.body.order.lab_account_id).toBe(caOnly);
      const inNy = await create(createBody(t.userId, cat.questPanel), t);
      expect(inNy.body.order.lab_account_id).toBe(ny);
      const insured = await create(createBody(t.userId, cat.questPanel, { billing_type: 'commercial_insurance', health_insurance: { payor_code: 'AETNA', insurance_id: 'W123456789' } }), t);
      expect(insured.body.order.lab_account_id).toBe(ny);

      const none = await create(createBody(t.userId, cat.questPanel, { billing_type: 'patient_bill' }), t);
      const msg = expect422(none, ['body', 'lab_account_id'])[0]!.msg;
      expect(msg).toMatch(/no active lab account of lab quest can bill patient_bill in state NY/);
      const noneTx = await create(createBody(t.userId, cat.questPanel, { patient_address: patientAddress({ state: 'TX' }) }), t);
      expect(expect422(noneTx, ['body', 'lab_account_id'])[0]!.msg).toMatch(/state TX/);
      // The given account must be able to bill there too.
      const given = await create(createBody(t.userId, cat.questPanel, { lab_account_id: caOnly }), t);
      expect(expect422(given, ['body', 'lab_account_id'])[0]!.msg).toMatch(/cannot bill client_bill in state NY/);
    });

    it('a team with no account of the lab gets 422 saying so', async () => {
      const t = await teamWithUser(svc());
      const msg = expect422(await create(createBody(t.userId, cat.questPanel), t), ['body', 'lab_account_id'])[0]!.msg;
      expect(msg).toMatch(/no .*quest/);
    });

    it('a refused order leaves nothing behind', async () => {
      const t = await teamWithUser(svc());
      await create(createBody(t.userId, undefined, { order_set: { lab_test_ids: [cat.questPanel], add_on: { marker_ids: [M.questA1c] } } }), t);
      const tests = await svc().db.select().from(labTests).where(eq(labTests.teamId, t.team.teamId));
      expect(tests).toHaveLength(0);
      const rows = await svc().db.select().from(orders).where(eq(orders.teamId, t.team.teamId));
      expect(rows).toHaveLength(0);
    });
  });

  describe('import', () => {
    it('accepts a PENDING account (given or picked); origin imported; sample_id stored', async () => {
      const given = await api().post('/v3/order/import', importBody(main.userId, { order_set: { lab_test_ids: [cat.sonoraPanel] }, lab_account_id: acc.sonoraPending, sample_id: 'SQ-0001' }));
      expect(given.status, JSON.stringify(given.body)).toBe(200);
      expect(given.body.status).toBe('success');
      expect(given.body.order.origin).toBe('imported');
      expect(given.body.order.sample_id).toBe('SQ-0001');
      expect(given.body.order.lab_account_id).toBe(acc.sonoraPending);
      expect(given.body.order.status).toBe('received');
      const picked = await api().post('/v3/order/import', importBody(main.userId, { order_set: { lab_test_ids: [cat.sonoraPanel] } }));
      expect(picked.status, JSON.stringify(picked.body)).toBe(200);
      expect(picked.body.order.lab_account_id).toBe(acc.sonoraPending);
      const got = await api().get(`/v3/order/${given.body.order.id}`);
      expect(got.body.sample_id).toBe('SQ-0001');
      const outbox = await svc()
        .db.select()
        .from(webhookOutbox)
        .where(sql`${webhookOutbox.payload}->'data'->>'id' = ${given.body.order.id}`);
      expect(outbox.map((e) => e.eventType)).toEqual(['labtest.order.created']);
    });

    it('prefers an active account over a pending one when picking', async () => {
      const r = await api().post('/v3/order/import', importBody(main.userId, { order_set: { lab_test_ids: [cat.questPanel] } }));
      expect(r.body.order.lab_account_id).toBe(acc.questA);
    });

    it('refuses a SUSPENDED account, given or as the only one', async () => {
      const body = importBody(main.userId, { order_set: { add_on: { marker_ids: [M.questGlucose] } }, lab_account_id: acc.bioSuspended });
      // (the marker is quest's; the lab check comes after the status check)
      expect(expect422(await api().post('/v3/order/import', body), ['body', 'lab_account_id'])[0]!.msg).toMatch(/suspended/);
      const t = await teamWithUser(svc());
      await insertLabAccount(svc().db, t.team.teamId, { lab: 'quest', status: 'suspended' });
      expect422(await api(t).post('/v3/order/import', importBody(t.userId, { order_set: { lab_test_ids: [cat.questPanel] } })), ['body', 'lab_account_id']);
    });

    it('checks its body: receiver_name, sample_id, a non-empty order set, the lab account’s lab', async () => {
      const noReceiver = importBody(main.userId, { order_set: { lab_test_ids: [cat.questPanel] }, patient_address: { ...patientAddress(), receiver_name: undefined } });
      expect422(await api().post('/v3/order/import', noReceiver), ['body', 'patient_address', 'receiver_name']);
      const noSample = importBody(main.userId, { order_set: { lab_test_ids: [cat.questPanel] }, sample_id: undefined });
      expect422(await api().post('/v3/order/import', noSample), ['body', 'sample_id']);
      expect422(await api().post('/v3/order/import', importBody(main.userId, { order_set: {} })), ['body', 'order_set']);
      const wrongLab = importBody(main.userId, { order_set: { lab_test_ids: [cat.questPanel] }, lab_account_id: acc.labcorp });
      expect(expect422(await api().post('/v3/order/import', wrongLab), ['body', 'lab_account_id'])[0]!.msg).toContain('Fixture Metabolic Panel');
      expectDetail(await api().post('/v3/order/import', importBody(other.userId, { order_set: { lab_test_ids: [cat.questPanel] } })), 404);
    });
  });

  describe('INCORRECT_LAB', () => {
    it('cancels the original in the same request and resolves a fresh account, never the original’s', async () => {
      const first = await create(createBody(main.userId, cat.questPanel));
      const original = first.body.order;
      expect(original.lab_account_id).toBe(acc.questA);

      const r = await create(createBody(main.userId, cat.questPanel, { update_reason: 'INCORRECT_LAB', original_order_id: original.id }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const replacement = r.body.order;
      expect(replacement.id).not.toBe(original.id);
      expect(replacement.lab_account_id).toBe(acc.questB);
      expect(replacement.update_reason).toBe('INCORRECT_LAB');
      expect(replacement.original_order_id).toBe(original.id);
      expect(replacement.status).toBe('received');

      const got = await api().get(`/v3/order/${original.id}`);
      expect(got.body.status).toBe('cancelled');
      expect(got.body.low_level_status).toBe('cancelled');
      expect(got.body.last_event.status).toBe('cancelled.walk_in_test.cancelled');
      const outbox = await svc()
        .db.select()
        .from(webhookOutbox)
        .where(sql`${webhookOutbox.payload}->'data'->>'id' = ${original.id}`);
      expect(outbox.map((e) => e.eventType)).toEqual(['labtest.order.created', 'labtest.order.updated']);
    });

    it('may move the order to another lab', async () => {
      const original = (await create(createBody(main.userId, cat.questPanel))).body.order;
      const r = await create(createBody(main.userId, cat.labcorpPanel, { update_reason: 'INCORRECT_LAB', original_order_id: original.id }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.order.lab_account_id).toBe(acc.labcorp);
    });

    it('refuses the original’s lab account, and the original stays as it was', async () => {
      const original = (await create(createBody(main.userId, cat.questPanel))).body.order;
      const r = await create(createBody(main.userId, cat.questPanel, { update_reason: 'INCORRECT_LAB', original_order_id: original.id, lab_account_id: original.lab_account_id }));
      expect(expect422(r, ['body', 'lab_account_id'])[0]!.msg).toMatch(/INCORRECT_LAB/);
      const got = await api().get(`/v3/order/${original.id}`);
      expect(got.body.status).toBe('received');
      expect(got.body.events).toHaveLength(1);
    });

    it('when only the original’s account could serve, 422 and nothing changes', async () => {
      const t = await teamWithUser(svc());
      await insertLabAccount(svc().db, t.team.teamId, { lab: 'quest' });
      const original = (await create(createBody(t.userId, cat.questPanel), t)).body.order;
      const r = await create(createBody(t.userId, cat.questPanel, { update_reason: 'INCORRECT_LAB', original_order_id: original.id }), t);
      expect(expect422(r, ['body', 'lab_account_id'])[0]!.msg).toMatch(/never chosen again/);
      expect((await api(t).get(`/v3/order/${original.id}`)).body.status).toBe('received');
      const rows = await svc().db.select().from(orders).where(eq(orders.teamId, t.team.teamId));
      expect(rows).toHaveLength(1);
    });

    it('refuses invalid originals: unknown or another team’s (404), another user’s or final (422), missing pairs (422)', async () => {
      const body = (original_order_id: string, over: Record<string, unknown> = {}) =>
        createBody(main.userId, cat.questPanel, { update_reason: 'INCORRECT_LAB', original_order_id, ...over });
      expectDetail(await create(body(UNKNOWN_UUID)), 404);
      const foreign = (await create(createBody(other.userId, cat.questPanel), other)).body.order;
      expect(foreign.id).toMatch(UUID);
      expectDetail(await create(body(foreign.id)), 404);

      const secondUser = await svc().createUser(main.team, { client_user_id: `pt-second-${kind}` });
      const theirs = (await create(createBody(secondUser, cat.questPanel))).body.order;
      expect422(await create(body(theirs.id)), ['body', 'original_order_id']);

      const cancelled = (await create(createBody(main.userId, cat.questPanel))).body.order;
      expect((await api().post(`/v3/order/${cancelled.id}/cancel`)).status).toBe(200);
      expect(expect422(await create(body(cancelled.id)), ['body', 'original_order_id'])[0]!.msg).toMatch(/cancelled/);

      expect422(await create(createBody(main.userId, cat.questPanel, { update_reason: 'INCORRECT_LAB' })), ['body', 'original_order_id']);
      expect422(await create(createBody(main.userId, cat.questPanel, { original_order_id: theirs.id })), ['body', 'update_reason']);
      expect422(await create(createBody(main.userId, cat.questPanel, { update_reason: 'WRONG_PATIENT', original_order_id: theirs.id })), ['body', 'update_reason']);
    });
  });
});

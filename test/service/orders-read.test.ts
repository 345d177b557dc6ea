import { eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, webhookOutbox } from '../../server/service/db/schema';
import { requisitionClinicalNotes } from '../../server/service/domain/orders/requisition';
import { expect422, expectDetail, storeKinds, UNKNOWN_UUID, useService, type Answer } from './harness';
import {
  createBody,
  importBody,
  insertCatalogue,
  insertLabAccount,
  M,
  patientAddress,
  patientDetails,
  pdfText,
  teamWithUser,
  type Catalogue,
  type OrderTeam,
} from './orderFixtures';

describe('requisition clinical notes', () => {
  it('prints the order’s notes, then the account’s defaults; whichever exists; null when none', () => {
    expect(requisitionClinicalNotes('Order note.', 'Account default.')).toBe('Order note.\nAccount default.');
    expect(requisitionClinicalNotes('Order note.', null)).toBe('Order note.');
    expect(requisitionClinicalNotes(undefined, 'Account default.')).toBe('Account default.');
    expect(requisitionClinicalNotes('  ', '')).toBeNull();
    expect(requisitionClinicalNotes(null, null)).toBeNull();
  });
});

interface OrderLite {
  id: string;
  status: string;
  low_level_status: string;
  created_at: string;
  patient_details: { first_name: string; last_name: string };
}

describe.each(storeKinds)('order reads, list, cancel and requisition (%s)', (kind) => {
  const svc = useService(kind);
  let cat: Catalogue;
  let main: OrderTeam;
  let other: OrderTeam;
  let secondUser: string;
  let questAccount: string;
  let foreignOrder: string;
  /** The list fixture: orders of the main team created in this order. */
  const made: Record<string, OrderLite> = {};
  const api = (t: OrderTeam = main) => svc().api(t.team.apiKey);
  const ok = (r: Answer) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    const db = svc().db;
    cat = await insertCatalogue(db);
    main = await teamWithUser(svc(), 'pt-reader-alpha');
    other = await teamWithUser(svc(), 'pt-reader-foreign');
    secondUser = await svc().createUser(main.team, { client_user_id: 'cohort-b-00042' });
    questAccount = await insertLabAccount(db, main.team.teamId, {
      lab: 'quest',
      name: 'Quest Main Account',
      providerAccountId: 'QA-778899',
      defaultClinicalNotes: 'Account default: draw before 10am.',
    });
    await insertLabAccount(db, main.team.teamId, { lab: 'labcorp', name: 'Labcorp Main', providerAccountId: 'LC-112233' });
    await insertLabAccount(db, other.team.teamId, { lab: 'quest' });

    const place = async (name: string, body: Record<string, unknown>, createdAt: string) => {
      const r = await api().post('/v3/order/create', body);
      const order = ok(r).order as OrderLite;
      await db.update(orders).set({ createdAt: new Date(createdAt), updatedAt: new Date(createdAt) }).where(eq(orders.id, order.id));
      await db.update(orderEvents).set({ createdAt: new Date(createdAt) }).where(eq(orderEvents.orderId, order.id));
      made[name] = { ...order, created_at: new Date(createdAt).toISOString() };
    };
    await place('zoe', createBody(main.userId, cat.questPanel, { patient_details: patientDetails({ first_name: 'Zoe', last_name: 'Adams' }) }), '2026-01-05T10:00:00Z');
    await place('bob', createBody(main.userId, cat.questKit, { patient_details: patientDetails({ first_name: 'Bob', last_name: 'Young' }) }), '2026-01-10T10:00:00Z');
    await place(
      'carla',
      createBody(secondUser, cat.labcorpPanel, { collection_method: 'at_home_phlebotomy', patient_details: patientDetails({ first_name: 'Carla', last_name: 'Moss' }) }),
      '2026-01-15T23:30:00Z',
    );
    const imported = ok(await api().post('/v3/order/import', importBody(main.userId, { order_set: { lab_test_ids: [cat.questPanel] }, sample_id: 'SMP-5512-XY' })));
    await db.update(orders).set({ createdAt: new Date('2026-01-20T08:00:00Z'), updatedAt: new Date('2026-01-20T08:00:00Z') }).where(eq(orders.id, imported.order.id));
    await db.update(orderEvents).set({ createdAt: new Date('2026-02-05T00:00:00Z') }).where(eq(orderEvents.orderId, imported.order.id));
    made.imported = imported.order;
    // Status changes: bob is cancelled later (his last status event is the newest), zoe moves on by hand.
    ok(await api().post(`/v3/order/${made.bob!.id}/cancel`));
    await db.update(orders).set({ updatedAt: new Date('2026-02-01T00:00:00Z') }).where(eq(orders.id, made.bob!.id));
    await db.update(orderEvents).set({ createdAt: new Date('2026-02-01T00:00:00Z') }).where(sql`${orderEvents.orderId} = ${made.bob!.id} and ${orderEvents.status} like 'cancelled.%'`);
    await db.update(orders).set({ status: 'collecting_sample', lowLevelStatus: 'appointment_pending', updatedAt: new Date('2026-01-25T00:00:00Z') }).where(eq(orders.id, made.zoe!.id));
    await db.insert(orderEvents).values({ orderId: made.zoe!.id, status: 'collecting_sample.walk_in_test.appointment_pending', createdAt: new Date('2026-01-25T00:00:00Z') });

    foreignOrder = ok(await api(other).post('/v3/order/create', createBody(other.userId, cat.questPanel))).order.id;
  });

  const list = async (qs: string, t: OrderTeam = main) => ok(await api(t).get(`/v3/orders${qs ? `?${qs}` : ''}`));
  const ids = (body: { orders: { id: string }[] }) => body.orders.map((o) => o.id);
  const idOf = (...names: string[]) => names.map((n) => made[n]!.id);

  describe('get', () => {
    it('serves the team’s order and 404 for another team’s or an unknown one', async () => {
      const got = ok(await api().get(`/v3/order/${made.carla!.id}`));
      expect(got.id).toBe(made.carla!.id);
      expect(got.user_id).toBe(secondUser);
      expect(got.details.type).toBe('at_home_phlebotomy');
      expectDetail(await api().get(`/v3/order/${foreignOrder}`), 404);
      expectDetail(await api().get(`/v3/order/${UNKNOWN_UUID}`), 404);
      expect422(await api().get('/v3/order/not-a-uuid'), ['path', 'order_id']);
    });

    it('serves an order whose status is a value nobody knows yet (non-exhaustive enums)', async () => {
      const o = ok(await api().post('/v3/order/create', createBody(main.userId, cat.questKit))).order;
      await svc().db.update(orders).set({ status: 'some_new_top', lowLevelStatus: 'some_new_status' }).where(eq(orders.id, o.id));
      await svc().db.insert(orderEvents).values({ orderId: o.id, status: 'received.testkit.some_new_status' });
      const got = ok(await api().get(`/v3/order/${o.id}`));
      expect(got.status).toBe('some_new_top');
      expect(got.low_level_status).toBe('some_new_status');
      expect(got.last_event.status).toBe('received.testkit.some_new_status');
      // Listed with the rest (a filter names only statuses the service knows: an unknown one is a 422).
      const listed = await list('size=100');
      expect(listed.orders.find((x: { id: string }) => x.id === o.id).low_level_status).toBe('some_new_status');
      expect(ids(await list('order_key=last_status&size=100'))).toContain(o.id);
      // Not final, so it can still be cancelled.
      expect(ok(await api().post(`/v3/order/${o.id}/cancel`)).order.status).toBe('cancelled');
    });
  });

  describe('list', () => {
    const fixtureOnly = (body: { orders: { id: string }[] }) => ids(body).filter((id) => Object.values(made).some((m) => m.id === id));

    it('answers {orders, total, page, size}, newest first by default, and never another team’s orders', async () => {
      const all = await list('start_date=2026-01-01&end_date=2026-01-31');
      expect(Object.keys(all).sort()).toEqual(['orders', 'page', 'size', 'total']);
      expect(all.page).toBe(1);
      expect(all.size).toBe(50);
      expect(all.total).toBe(4);
      expect(ids(all)).toEqual(idOf('imported', 'carla', 'bob', 'zoe'));
      expect(ids(await list('size=100'))).not.toContain(foreignOrder);
      const theirs = await list('', other);
      expect(ids(theirs)).toEqual([foreignOrder]);
      expect(theirs.total).toBe(1);
    });

    it('pages with page and size (at most 100)', async () => {
      const base = 'start_date=2026-01-01&end_date=2026-01-31&order_direction=asc';
      const p1 = await list(`${base}&size=3&page=1`);
      const p2 = await list(`${base}&size=3&page=2`);
      expect(p1.total).toBe(4);
      expect(p2.total).toBe(4);
      expect(ids(p1)).toEqual(idOf('zoe', 'bob', 'carla'));
      expect(ids(p2)).toEqual(idOf('imported'));
      expect(p2.page).toBe(2);
      expect(p2.size).toBe(3);
      expect((await list(`${base}&size=3&page=3`)).orders).toEqual([]);
      expect422(await api().get('/v3/orders?size=101'), ['query', 'size']);
      expect422(await api().get('/v3/orders?page=0'), ['query', 'page']);
    });

    it('filters by low-level status (repeatable); an unknown value is a 422 at the query field', async () => {
      expect(fixtureOnly(await list('status=cancelled'))).toEqual(idOf('bob'));
      expect(fixtureOnly(await list('status=cancelled&status=appointment_pending'))).toEqual(idOf('bob', 'zoe'));
      const unknown = await api().get('/v3/orders?status=brand_new_status');
      expect(unknown.status).toBe(422);
      expect(unknown.body.detail[0].loc).toEqual(['query', 'status', 0]);
    });

    it('filters by collection method (order_type, repeatable), user, and order ids', async () => {
      expect(fixtureOnly(await list('order_type=testkit'))).toEqual(idOf('bob'));
      expect(fixtureOnly(await list('order_type=testkit&order_type=at_home_phlebotomy'))).toEqual(idOf('carla', 'bob'));
      expect(ids(await list(`user_id=${secondUser}`))).toEqual(idOf('carla'));
      expect(ids(await list(`order_ids=${made.zoe!.id}&order_ids=${made.carla!.id}&order_ids=${foreignOrder}`))).toEqual(idOf('carla', 'zoe'));
    });

    it('filters by created and updated dates; a date alone means the whole day', async () => {
      expect(ids(await list('start_date=2026-01-10&end_date=2026-01-15'))).toEqual(idOf('carla', 'bob'));
      expect(ids(await list('start_date=2026-01-15T23:00:00Z&end_date=2026-01-15T23:59:00%2B00:00'))).toEqual(idOf('carla'));
      expect(ids(await list('start_date=2026-01-15T23:31:00Z&end_date=2026-01-19'))).toEqual([]);
      expect(ids(await list('updated_start_date=2026-01-24&updated_end_date=2026-02-01'))).toEqual(idOf('bob', 'zoe'));
      expect(ids(await list('updated_start_date=2026-01-26&updated_end_date=2026-02-01'))).toEqual(idOf('bob'));
      expect422(await api().get('/v3/orders?start_date=yesterday'), ['query', 'start_date']);
      expect422(await api().get('/v3/orders?updated_end_date=2026-13-45'), ['query', 'updated_end_date']);
    });

    it('searches order id, sample id, patient name and client_user_id; patient_name filters by name', async () => {
      expect(ids(await list(`search_input=${made.carla!.id.slice(0, 13)}`))).toEqual(idOf('carla'));
      expect(ids(await list('search_input=smp-5512'))).toEqual(idOf('imported'));
      expect(ids(await list('search_input=bob%20young'))).toEqual(idOf('bob'));
      expect(ids(await list('search_input=Young'))).toEqual(idOf('bob'));
      expect(ids(await list('search_input=cohort-b-0004'))).toEqual(idOf('carla'));
      expect(ids(await list('search_input=pt-reader-foreign'))).toEqual([]);
      expect(ids(await list('search_input=%25'))).toEqual([]);
      expect(ids(await list('patient_name=zoe%20ad'))).toEqual(idOf('zoe'));
      expect(ids(await list('patient_name=MOSS'))).toEqual(idOf('carla'));
    });

    it('sorts by created_at, patient_name (last, first) and last_status, both directions', async () => {
      const base = 'start_date=2026-01-01&end_date=2026-01-31';
      expect(ids(await list(`${base}&order_key=created_at&order_direction=asc`))).toEqual(idOf('zoe', 'bob', 'carla', 'imported'));
      // Adams, Lovelace (imported), Moss, Young.
      expect(ids(await list(`${base}&order_key=patient_name&order_direction=asc`))).toEqual(idOf('zoe', 'imported', 'carla', 'bob'));
      expect(ids(await list(`${base}&order_key=patient_name&order_direction=desc`))).toEqual(idOf('bob', 'carla', 'imported', 'zoe'));
      // Latest status events: carla 01-15, zoe 01-25, bob 02-01, imported 02-05.
      const byStatus = ids(await list(`${base}&order_key=last_status&order_direction=asc`));
      expect(byStatus).toEqual(idOf('carla', 'zoe', 'bob', 'imported'));
      expect422(await api().get('/v3/orders?order_key=price'), ['query', 'order_key']);
    });
  });

  describe('cancel', () => {
    it('cancels: PostOrderResponse, an event and a labtest.order.updated outbox event', async () => {
      const o = ok(await api().post('/v3/order/create', createBody(main.userId, cat.questPanel))).order;
      const r = ok(await api().post(`/v3/order/${o.id}/cancel`));
      expect(r.status).toBe('success');
      expect(typeof r.message).toBe('string');
      expect(r.order.id).toBe(o.id);
      expect(r.order.status).toBe('cancelled');
      expect(r.order.low_level_status).toBe('cancelled');
      expect(r.order.events.map((e: { status: string }) => e.status)).toEqual(['received.walk_in_test.ordered', 'cancelled.walk_in_test.cancelled']);
      const outbox = await svc()
        .db.select()
        .from(webhookOutbox)
        .where(sql`${webhookOutbox.payload}->'data'->>'id' = ${o.id}`)
        .orderBy(webhookOutbox.id);
      expect(outbox.map((e) => e.eventType)).toEqual(['labtest.order.created', 'labtest.order.updated']);
      expect((outbox[1]!.payload as { data: { status: string } }).data.status).toBe('cancelled');
    });

    it('takes an empty body sent with a JSON content type', async () => {
      const o = ok(await api().post('/v3/order/create', createBody(main.userId, cat.questPanel))).order;
      const r = await svc().inject({ method: 'POST', url: `/v3/order/${o.id}/cancel`, key: main.team.apiKey, headers: { 'content-type': 'application/json' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.order.status).toBe('cancelled');
    });

    it('refuses an order in a final status with 422 at the path', async () => {
      const o = ok(await api().post('/v3/order/create', createBody(main.userId, cat.questPanel))).order;
      ok(await api().post(`/v3/order/${o.id}/cancel`));
      expect(expect422(await api().post(`/v3/order/${o.id}/cancel`), ['path', 'order_id'])[0]!.msg).toMatch(/cancelled/);
      const done = ok(await api().post('/v3/order/create', createBody(main.userId, cat.questPanel))).order;
      await svc().db.update(orders).set({ status: 'completed', lowLevelStatus: 'completed' }).where(eq(orders.id, done.id));
      expect422(await api().post(`/v3/order/${done.id}/cancel`), ['path', 'order_id']);
      await svc().db.update(orders).set({ status: 'failed', lowLevelStatus: 'lost' }).where(eq(orders.id, done.id));
      expect422(await api().post(`/v3/order/${done.id}/cancel`), ['path', 'order_id']);
    });

    it('answers 404 for another team’s order and leaves it alone', async () => {
      expectDetail(await api().post(`/v3/order/${foreignOrder}/cancel`), 404);
      expectDetail(await api().post(`/v3/order/${UNKNOWN_UUID}/cancel`), 404);
      expect(ok(await api(other).get(`/v3/order/${foreignOrder}`)).status).toBe('received');
    });
  });

  describe('requisition PDF', () => {
    const fetchPdf = (orderId: string, t: OrderTeam = main) => svc().inject({ method: 'GET', url: `/v3/order/${orderId}/requisition/pdf`, key: t.team.apiKey });

    it('is a PDF with the order, patient, physician, lab account, tests and both clinical notes', async () => {
      const o = ok(
        await api().post(
          '/v3/order/create',
          createBody(main.userId, undefined, {
            order_set: { lab_test_ids: [cat.questPanel], add_on: { marker_ids: [M.questA1c] } },
            clinical_notes: 'Order note: patient on metformin.',
            patient_address: patientAddress({ access_notes: 'Gate code 4471, ring twice.' }),
          }),
        ),
      ).order;
      expect(o.lab_account_id).toBe(questAccount);
      const r = await fetchPdf(o.id);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/pdf/);
      const bytes = r.raw.rawPayload;
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const doc = await PDFDocument.load(bytes);
      expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
      expect(doc.getTitle()).toContain(o.id);

      const text = pdfText(bytes);
      for (const s of [
        o.id,
        'Ada Lovelace',
        '1985-12-10',
        '12 Analytical Engine Rd',
        'Gate code 4471, ring twice.',
        'Grace Hopper',
        '1234567893',
        'Quest Diagnostics',
        'Quest Main Account',
        'QA-778899',
        'FXQ-GLU',
        'FXQ-LIP',
        'FXQ-A1C',
        'Fixture HbA1c',
        'Clinical notes',
        'Order note: patient on metformin.',
        'Account default: draw before 10am.',
      ]) {
        expect(text, s).toContain(s);
      }
      expect(text.indexOf('Order note: patient on metformin.')).toBeLessThan(text.indexOf('Account default: draw before 10am.'));
    });

    it('prints the account’s default notes alone, and "None" when neither exists', async () => {
      const withDefault = ok(await api().post('/v3/order/create', createBody(main.userId, cat.questPanel))).order;
      const t1 = pdfText((await fetchPdf(withDefault.id)).raw.rawPayload);
      expect(t1).toContain('Account default: draw before 10am.');
      const labcorp = ok(await api().post('/v3/order/create', createBody(main.userId, cat.labcorpPanel))).order;
      const t2 = pdfText((await fetchPdf(labcorp.id)).raw.rawPayload);
      expect(t2).toContain('LC-112233');
      expect(t2).toMatch(/Clinical notes\nNone/);
    });

    it('renders long notes and characters the PDF font lacks', async () => {
      const notes = ('Überprüfen 😀 日本 ' + 'x'.repeat(80) + ' ').repeat(20).slice(0, 1000);
      const o = ok(
        await api().post(
          '/v3/order/create',
          createBody(main.userId, cat.questPanel, { clinical_notes: notes, patient_address: patientAddress({ access_notes: 'y'.repeat(1000) }) }),
        ),
      ).order;
      const r = await fetchPdf(o.id);
      expect(r.status).toBe(200);
      const doc = await PDFDocument.load(r.raw.rawPayload);
      expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
      expect(pdfText(r.raw.rawPayload)).toContain('Überprüfen ?');
    });

    it('answers 404 for another team’s order', async () => {
      expectDetail(await fetchPdf(foreignOrder), 404);
      expectDetail(await fetchPdf(UNKNOWN_UUID), 404);
    });
  });
});

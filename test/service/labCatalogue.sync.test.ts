import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { labAccounts, labs, labTests, markers } from '../../server/service/db/schema';
import { seedDemoIfEmpty } from '../../server/service/seed/demo';
import {
  catalogueLabTestRows,
  catalogueMarkerRows,
  LAB_DEFINITIONS,
  sharedLabTestId,
  startLabCatalogue,
  syncLabCatalogue,
} from '../../server/service/seed/labCatalogue';
import { storeKinds, useService } from './harness';

describe('lab catalogue data', () => {
  it('uses each lab’s test codes once, and every shared lab test uses markers and a collection method of its lab', () => {
    const rows = catalogueMarkerRows();
    const keys = rows.map((m) => `${m.labId}:${m.providerId}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(rows.map((m) => m.id)).size).toBe(rows.length);
    const byId = new Map(rows.map((m) => [m.id, m]));
    for (const t of catalogueLabTestRows()) {
      const lab = LAB_DEFINITIONS.find((l) => l.id === t.labId)!;
      expect(lab.collectionMethods).toContain(t.method);
      expect(lab.sampleTypes).toContain(t.sampleType);
      for (const id of t.markerIds) expect(byId.get(id)?.labId).toBe(t.labId);
      expect(t.id).toBe(sharedLabTestId(t.slug));
    }
  });
});

describe.each(storeKinds)('lab catalogue sync (%s)', (kind) => {
  const svc = useService(kind);
  const counts = async () => {
    const db = svc().db;
    const [[l], [m], [t]] = await Promise.all([
      db.select({ n: count() }).from(labs),
      db.select({ n: count() }).from(markers),
      db.select({ n: count() }).from(labTests),
    ]);
    return { labs: l!.n, markers: m!.n, labTests: t!.n };
  };

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
  });

  it('is idempotent: a second sync changes no row and keeps ids and updated_at', async () => {
    const before = await counts();
    expect(before).toEqual({ labs: 4, markers: catalogueMarkerRows().length, labTests: catalogueLabTestRows().length });
    const testsBefore = await svc().db.select().from(labTests).orderBy(asc(labTests.id));
    await syncLabCatalogue(svc().db);
    expect(await counts()).toEqual(before);
    const testsAfter = await svc().db.select().from(labTests).orderBy(asc(labTests.id));
    expect(testsAfter.map((t) => [t.id, t.updatedAt.toISOString()])).toEqual(testsBefore.map((t) => [t.id, t.updatedAt.toISOString()]));
  });

  it('restores edited rows, retires markers and shared tests that left the catalogue, and leaves team tests alone', async () => {
    const db = svc().db;
    const team = await svc().createTeam('Sync team');
    await db.update(markers).set({ price: '999.99', name: 'Edited' }).where(eq(markers.id, 1001));
    await db.insert(markers).values({
      id: 1999,
      labId: 1,
      name: 'Retired marker',
      slug: 'retired_marker',
      providerId: 'RETIRED-1',
      type: 'biomarker',
      expectedResults: [],
    });
    const [stale] = await db
      .insert(labTests)
      .values({ labId: 1, slug: 'quest_retired', name: 'Retired bundle', sampleType: 'serum', method: 'walk_in_test', price: 10, markerIds: [1001] })
      .returning();
    const [own] = await db
      .insert(labTests)
      .values({ teamId: team.teamId, labId: 1, slug: 'own', name: 'Own bundle', sampleType: 'serum', method: 'walk_in_test', price: 10, markerIds: [1001] })
      .returning();
    const quest = LAB_DEFINITIONS[0]!;
    await db.update(labs).set({ name: 'Renamed' }).where(eq(labs.id, quest.id));

    await syncLabCatalogue(db);

    const [glucose] = await db.select().from(markers).where(eq(markers.id, 1001));
    expect(glucose).toMatchObject({ name: 'Glucose', price: '12.00', isOrderable: true });
    const [retired] = await db.select().from(markers).where(eq(markers.id, 1999));
    expect(retired!.isOrderable).toBe(false);
    const [staleAfter] = await db.select().from(labTests).where(eq(labTests.id, stale!.id));
    expect(staleAfter!.status).toBe('inactive');
    const [ownAfter] = await db.select().from(labTests).where(eq(labTests.id, own!.id));
    expect(ownAfter!.status).toBe('active');
    const [questAfter] = await db.select().from(labs).where(eq(labs.id, quest.id));
    expect(questAfter!.name).toBe('Quest Diagnostics');
    const active = await db
      .select({ n: count() })
      .from(labTests)
      .where(and(isNull(labTests.teamId), eq(labTests.status, 'active')));
    expect(active[0]!.n).toBe(catalogueLabTestRows().length);

    // The retired bundle still reads back (orders refer to it) but says it is inactive.
    const r = await svc().api(team.apiKey).get(`/v3/lab_tests/${stale!.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'inactive', is_active: false });
    const listed = await svc().api(team.apiKey).get('/v3/lab_tests?status=inactive');
    expect(listed.body.map((t: { id: string }) => t.id)).toEqual([stale!.id]);
  });
});

describe.each(storeKinds)('demo team lab accounts (%s)', (kind) => {
  const svc = useService(kind);
  const DEMO_KEY = 'demo-key-for-the-lab-catalogue-suite';
  let teamId: string | null;

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    teamId = await seedDemoIfEmpty(svc().db, { apiKey: DEMO_KEY, users: 2, days: 3, now: new Date('2026-06-01T12:00:00Z'), seed: 7 });
  });

  it('seeding the demo team gives it one account per lab, Sonora Quest pending', async () => {
    expect(teamId).toBeTruthy();
    const r = await svc().api(DEMO_KEY).get('/v3/lab_test/lab_account');
    expect(r.status).toBe(200);
    expect(r.body.data.map((a: { lab: string; status: string }) => `${a.lab}:${a.status}`)).toEqual([
      'quest:active',
      'labcorp:active',
      'bioreference:active',
      'sonora_quest:pending',
    ]);
    const pending = await svc().api(DEMO_KEY).get('/v3/lab_test/lab_account?status=pending');
    expect(pending.body.data).toHaveLength(1);
    expect(pending.body.data[0].lab).toBe('sonora_quest');
  });

  it('startLabCatalogue at a later start keeps the accounts, and gives them back to a demo team that has none', async () => {
    const before = (await svc().api(DEMO_KEY).get('/v3/lab_test/lab_account')).body.data.map((a: { id: string }) => a.id);
    await startLabCatalogue(svc().db);
    const same = (await svc().api(DEMO_KEY).get('/v3/lab_test/lab_account')).body.data.map((a: { id: string }) => a.id);
    expect(same).toEqual(before);

    // A store seeded before lab accounts existed: the next start creates them.
    await svc().db.delete(labAccounts).where(eq(labAccounts.teamId, teamId!));
    await startLabCatalogue(svc().db);
    const again = await svc().api(DEMO_KEY).get('/v3/lab_test/lab_account');
    expect(again.body.data).toHaveLength(4);
  });
});

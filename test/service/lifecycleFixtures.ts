/**
 * Fixtures of the order lifecycle suites: a small catalogue, lab accounts, users and orders written
 * straight into the store (order creation is tested on its own; these suites need orders in any status).
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { jobs, labAccounts, labs, labTests, orderEvents, orders, users, webhookOutbox, type ServiceSchema } from '../../server/service/db/schema';
import { orderStatus } from '../../server/service/domain/orders/statuses';
import type { Database } from '../../server/store/db';

type Db = Database<ServiceSchema>;

export const METHODS = ['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection'] as const;
export type Method = (typeof METHODS)[number];

const hex = (n = 4) => randomBytes(n).toString('hex');

/** Lab 1 (quest) as the catalogue has it, if it is not there yet; ids are stable across the project. */
export async function ensureLab(db: Db, id = 1, slug = 'quest') {
  await db
    .insert(labs)
    .values({
      id,
      slug,
      name: `Lab ${slug}`,
      firstLineAddress: '1 Fixture Way',
      city: 'Testville',
      zipcode: '10001',
      collectionMethods: [...METHODS],
      sampleTypes: ['serum', 'dried_blood_spot'],
    })
    .onConflictDoNothing();
}

/** One shared (team_id null) lab test per collection method, of the given lab. */
export async function insertLabTests(db: Db, labId = 1, methods: readonly string[] = METHODS): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const method of methods) {
    const [row] = await db
      .insert(labTests)
      .values({
        labId,
        slug: `fixture-${method}-${hex()}`,
        name: `Fixture panel (${method})`,
        sampleType: method === 'testkit' ? 'dried_blood_spot' : 'serum',
        method,
        price: 49,
        markerIds: [],
      })
      .returning({ id: labTests.id });
    out[method] = row!.id;
  }
  return out;
}

export async function insertLabAccount(db: Db, teamId: string, labSlug = 'quest', status = 'active'): Promise<string> {
  const [row] = await db
    .insert(labAccounts)
    .values({
      teamId,
      labSlug,
      status,
      delegatedFlow: 'not_delegated',
      providerAccountId: `FX-${hex(3)}`,
      allowedBilling: { client_bill: ['NY', 'NJ', 'CA', 'TX', 'FL', 'IL'], commercial_insurance: ['NY'] },
    })
    .returning({ id: labAccounts.id });
  return row!.id;
}

export async function insertUser(db: Db, teamId: string): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ teamId, clientUserId: `fx-${hex()}` })
    .returning({ id: users.id });
  return row!.id;
}

export interface OrderFixture {
  teamId: string;
  userId: string;
  labTestId: string;
  method: string;
  top?: string;
  low?: string;
  labAccountId?: string | null;
}

/** An order in the given status (received.ordered by default) with its first event. */
export async function insertOrder(db: Db, f: OrderFixture): Promise<string> {
  const top = f.top ?? 'received';
  const low = f.low ?? 'ordered';
  const [row] = await db
    .insert(orders)
    .values({
      teamId: f.teamId,
      userId: f.userId,
      labTestId: f.labTestId,
      labAccountId: f.labAccountId ?? null,
      collectionMethod: f.method,
      status: top,
      lowLevelStatus: low,
      patientDetails: { first_name: 'Robin', last_name: 'Fixture', dob: '1980-04-02', gender: 'other', phone_number: '+1 212 555 0100', email: 'robin@example.com' },
      patientAddress: { first_line: '12 Elm St', city: 'New York', state: 'NY', zip: '10001', country: 'US' },
      billingType: 'client_bill',
    })
    .returning({ id: orders.id });
  await db.insert(orderEvents).values({ orderId: row!.id, status: orderStatus(top, f.method, low) });
  return row!.id;
}

export async function orderRow(db: Db, orderId: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

/** The order's event statuses, oldest first. */
export async function eventStatuses(db: Db, orderId: string): Promise<string[]> {
  const rows = await db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
  return rows.map((r) => r.status);
}

/** The order's outbox rows, oldest first. */
export async function outboxOf(db: Db, orderId: string) {
  return db
    .select()
    .from(webhookOutbox)
    .where(sql`${webhookOutbox.payload}->'data'->>'id' = ${orderId}`)
    .orderBy(asc(webhookOutbox.id));
}

/** The order's jobs (any kind), oldest first. */
export async function jobsOf(db: Db, orderId: string) {
  return db
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'order_id' = ${orderId}`)
    .orderBy(asc(jobs.id));
}

export async function pendingJobsOf(db: Db, orderId: string) {
  return (await jobsOf(db, orderId)).filter((j) => j.doneAt === null && j.failedAt === null);
}

/** Makes every pending job due now (instead of waiting for its run_at). */
export async function makeDue(db: Db) {
  await db
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(and(isNull(jobs.doneAt), isNull(jobs.failedAt)));
}

/** Finishes every pending job without running it, so a test starts with an empty queue. */
export async function clearJobs(db: Db) {
  await db
    .update(jobs)
    .set({ doneAt: sql`now()`, lastError: 'cleared by the test' })
    .where(and(isNull(jobs.doneAt), isNull(jobs.failedAt)));
}

/** Runs due jobs (made due each round) until none is left; returns how many ran. */
export async function drain(db: Db, worker: { runDueOnce(): Promise<number> }, maxRounds = 1000): Promise<number> {
  let total = 0;
  for (let round = 0; round < maxRounds; round++) {
    await makeDue(db);
    const ran = await worker.runDueOnce();
    total += ran;
    if (ran === 0) return total;
  }
  throw new Error(`jobs still pending after ${maxRounds} rounds`);
}

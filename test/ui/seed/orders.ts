/**
 * Seeding helpers of the order and lab-catalogue page tests (test/ui/orders*.test.tsx,
 * test/ui/labCatalogue.test.tsx). Everything is made in the real service: orders through its HTTP
 * API (`placeOrder`, `driveOrder`), and only what that API cannot make (a status from a newer
 * service version, an account still under review, event times of a fixed day) straight in its
 * tables. Nothing here answers for the BFF.
 */
import { asc, eq } from 'drizzle-orm';
import { labAccounts, labTests, orderEvents, orders } from '../../../server/service/db/schema';
import type { Team } from '../../bff/harness';
import type { LabServiceFixture } from '../../bff/ordersFixture';
import { forgetCatalogue } from '../../../server/service/domain/labs/catalogueCache';

/** A patient's details as the order form and the service take them. */
export const patient = (first_name: string, last_name: string, dob = '1975-01-02') => ({
  first_name,
  last_name,
  dob,
  gender: 'female',
  phone_number: '+15555550111',
  email: `${first_name.toLowerCase()}@example.com`,
});

type AccountValues = Omit<typeof labAccounts.$inferInsert, 'teamId' | 'id' | 'createdAt'>;

/** Inserts a lab account of a team straight into the service's table (e.g. a status the API never sets); returns its id. */
export async function addLabAccount(service: LabServiceFixture, team: Team, values: AccountValues): Promise<string> {
  const [row] = await service.db
    .insert(labAccounts)
    .values({ ...values, teamId: team.teamId })
    .returning({ id: labAccounts.id });
  return row!.id;
}

/**
 * Gives an order a status this dashboard does not know (as a newer service would): the order row's
 * status and low-level status, and one more event with the full status.
 */
export async function setUnknownStatus(service: LabServiceFixture, orderId: string, status: string, lowLevelStatus: string, fullStatus: string) {
  await service.db.update(orders).set({ status, lowLevelStatus, updatedAt: new Date() }).where(eq(orders.id, orderId));
  await service.db.insert(orderEvents).values({ orderId, status: fullStatus });
}

/** Moves an order's events to fixed instants (in event order), so a page shows the same times whatever the time of day. */
export async function setEventTimes(service: LabServiceFixture, orderId: string, instants: string[]) {
  const events = await service.db.select({ id: orderEvents.id }).from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
  if (events.length !== instants.length) throw new Error(`order ${orderId} has ${events.length} events, not ${instants.length}`);
  for (const [i, e] of events.entries()) {
    await service.db.update(orderEvents).set({ createdAt: new Date(instants[i]!) }).where(eq(orderEvents.id, e.id));
  }
}

/** Moves an order's creation instant (the list sorts and filters on it). */
export async function setCreatedAt(service: LabServiceFixture, orderId: string, instant: string) {
  await service.db.update(orders).set({ createdAt: new Date(instant) }).where(eq(orders.id, orderId));
}

/** Sets a (shared) lab test's status, e.g. retires it while a form still offers it. */
export async function setLabTestStatus(service: LabServiceFixture, labTestId: string, status: string) {
  await service.db.update(labTests).set({ status, updatedAt: new Date() }).where(eq(labTests.id, labTestId));
  // Written behind the service's back (the catalogue sync announces its own changes).
  forgetCatalogue(service.db);
}


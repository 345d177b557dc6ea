/**
 * Fixtures of the walk-in suites (BFF and page tests): orders collected at a patient service center
 * (quest "Annual Wellness", patient in Chicago 60601) and on site (BioReference "Workplace Wellness
 * Screen", given a BioReference lab account that bills in Illinois).
 */
import { insertLabAccount } from '../service/orderFixtures';
import type { Team } from './harness';
import { labTestId, type LabServiceFixture, type WireOrder } from './ordersFixture';

export const WALK_IN = labTestId('quest', 'Annual Wellness');
export const ON_SITE = labTestId('bioreference', 'Workplace Wellness Screen');
export const CHICAGO_PATIENT = { first_line: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zip: '60601', country: 'US' };

export function placeWalkInOrder(service: LabServiceFixture, team: Team, userId: string): Promise<WireOrder> {
  return service.placeOrder(team, userId, { lab_test_id: WALK_IN, patient_address: CHICAGO_PATIENT });
}

/** An on-site order at received.requisition_created, where it waits for its draw. */
export async function placeOnSiteOrder(service: LabServiceFixture, team: Team, userId: string): Promise<WireOrder> {
  // One that bills everywhere (a seeded BioReference account may not cover Illinois).
  await insertLabAccount(service.db, team.teamId, { lab: 'bioreference' });
  const order = await service.placeOrder(team, userId, { lab_test_id: ON_SITE, patient_address: CHICAGO_PATIENT });
  return service.driveOrder(team, order.id, 'received.on_site_collection.requisition_created');
}

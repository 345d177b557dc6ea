/**
 * Fixtures of the BFF's appointment suite: the real service (ordersFixture.startLabService) with
 * at-home phlebotomy orders placed through its HTTP API, provider behaviour set in its settings row,
 * booking keys that expired, and the background confirmation of an asynchronous booking.
 */
import { BOOKING_KEY_SECRET, BookingKeyCodec } from '../../server/service/domain/appointments/bookingKey';
import { runConfirmJob } from '../../server/service/domain/appointments/confirmJob';
import { persistentSecret } from '../../server/service/domain/settings';
import { setProviderBehaviour, type BehaviourConfig } from '../../server/service/providers';
import type { Team } from './harness';
import { labTestId, type LabServiceFixture, type WireOrder } from './ordersFixture';

/** A shared catalogue test collected at home (quest "Lipid Panel"). */
export const HOME_DRAW = labTestId('quest', 'Lipid Panel');

/** Chicago (60601, IL): served by provider_1 (2 places per 30 min) and provider_2; zone America/Chicago. */
export const CHICAGO = { first_line: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zip_code: '60601' };
export const ACCESS_NOTES = 'Gate code 8642, ring the blue door';
/** Denver (80202, CO): served by provider_3; zone America/Denver. */
export const DENVER = { first_line: '1701 Wynkoop St', city: 'Denver', state: 'CO', zip_code: '80202' };

export const patient = (first_name: string, last_name: string) => ({
  first_name,
  last_name,
  dob: '1975-01-02',
  gender: 'other',
  phone_number: '+15555550111',
  email: `${first_name.toLowerCase()}@example.com`,
});

/** Places an at-home phlebotomy order at the Chicago address (with access notes) through the service. */
export function placeHomeOrder(service: LabServiceFixture, team: Team, userId: string, name: [string, string] = ['Rosalind', 'Franklin']): Promise<WireOrder> {
  const { zip_code, ...rest } = CHICAGO;
  return service.placeOrder(team, userId, {
    lab_test_id: HOME_DRAW,
    patient_details: patient(...name),
    patient_address: { ...rest, zip: zip_code, country: 'US', access_notes: ACCESS_NOTES },
  });
}

/** Provider behaviour of the service (the `phlebotomy_provider_behaviour` settings row). */
export const behave = (service: LabServiceFixture, cfg: BehaviourConfig) => setProviderBehaviour(service.db, cfg);

/** The same slot and address as `key`, signed with the service's secret, but expired a second ago. */
export async function expiredCopy(service: LabServiceFixture, key: string): Promise<string> {
  const codec = new BookingKeyCodec(await persistentSecret(service.db, BOOKING_KEY_SECRET));
  const p = JSON.parse(Buffer.from(key.split('.')[0]!, 'base64url').toString());
  return codec.encode({ t: p.t, p: p.p, s: p.s, e: p.e, a: p.a, pr: p.pr, pp: p.pp, x: new Date(Date.now() - 1000).toISOString() });
}

/**
 * What the service's job worker does for an asynchronous booking (the suite's service runs no
 * worker, so the order lifecycle jobs stay put): poll the provider's ticket once.
 */
export const runConfirmation = (service: LabServiceFixture, appointmentId: string) => runConfirmJob(service.db, { appointment_id: appointmentId });

/** A date `days` from today (UTC, YYYY-MM-DD). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

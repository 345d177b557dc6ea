/** Fixtures of the appointment suites: an at-home phlebotomy lab test, orders on it, provider behaviour. */
import { labTests } from '../../server/service/db/schema';
import { setProviderBehaviour, type BehaviourConfig } from '../../server/service/providers';
import type { ServiceHarness } from './harness';
import { createBody, insertCatalogue, insertLabAccount, M, patientAddress, teamWithUser, type OrderTeam } from './orderFixtures';

/** A Chicago address (zip 60601, IL): served by provider_1 and provider_2, zone America/Chicago. */
export const CHICAGO = { first_line: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zip_code: '60601' };

export interface PhlebTeam extends OrderTeam {
  labTestId: string;
}

/** A team with a user, a quest account and a shared at-home phlebotomy lab test. */
export async function phlebTeam(svc: ServiceHarness): Promise<PhlebTeam> {
  await insertCatalogue(svc.db);
  const t = await teamWithUser(svc);
  await insertLabAccount(svc.db, t.team.teamId, { lab: 'quest' });
  const [row] = await svc.db
    .insert(labTests)
    .values({
      teamId: t.team.teamId,
      labId: 1,
      slug: `fixture-home-draw-${Math.random().toString(36).slice(2, 8)}`,
      name: 'Fixture Home Draw',
      sampleType: 'serum',
      method: 'at_home_phlebotomy',
      price: 79,
      status: 'active',
      markerIds: [M.questGlucose],
    })
    .returning({ id: labTests.id });
  return { ...t, labTestId: row!.id };
}

/** An at-home phlebotomy order at the given address (USAddress form); returns its id. */
export async function homeOrder(svc: ServiceHarness, t: PhlebTeam, address: Record<string, unknown> = CHICAGO, accessNotes: string | null = 'Gate code 4321, park on the street'): Promise<string> {
  const { zip_code, ...rest } = address as { zip_code: string } & Record<string, unknown>;
  const r = await svc
    .api(t.team.apiKey)
    .post('/v3/order/create', createBody(t.userId, t.labTestId, { patient_address: patientAddress({ ...rest, zip: zip_code, second_line: null, access_notes: accessNotes }) }));
  if (r.status !== 200) throw new Error(`order create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.order.id as string;
}

export const behave = (svc: ServiceHarness, cfg: BehaviourConfig) => setProviderBehaviour(svc.db, cfg);

/** A start date a week from now (YYYY-MM-DD, UTC), so every offered slot lies in the future. */
export function nextWeek(): string {
  return new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- availability answers are read by property
export function allSlots(body: any): any[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return body.slots.flatMap((d: any) => d.slots);
}

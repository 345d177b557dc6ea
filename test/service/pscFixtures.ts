import { expect } from 'vitest';
import { sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import type { ServiceHarness, Team } from './harness';
import { createBody, insertLabAccount } from './orderFixtures';

export const WALK_IN_TEST = sharedLabTestId('quest_annual_wellness');
export const TESTKIT_TEST = sharedLabTestId('quest_thyroid_check');
export const ON_SITE_TEST = sharedLabTestId('bioreference_workplace_wellness_screen');

export interface PscTeam {
  team: Team;
  userId: string;
}

/** A team with a patient (ZIP 10001, Manhattan) and Quest and BioReference accounts. */
export async function pscTeam(svc: ServiceHarness): Promise<PscTeam> {
  await syncLabCatalogue(svc.db);
  const team = await svc.createTeam();
  const userId = await svc.createUser(team, { client_user_id: `pt-psc-${team.teamId.slice(0, 8)}` });
  await insertLabAccount(svc.db, team.teamId, { lab: 'quest' });
  await insertLabAccount(svc.db, team.teamId, { lab: 'bioreference' });
  return { team, userId };
}

/** A new order of the team for the lab test; answers its id. */
export async function newOrder(svc: ServiceHarness, t: PscTeam, labTestId: string): Promise<string> {
  const r = await svc.api(t.team.apiKey).post('/v3/order', createBody(t.userId, labTestId));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.order.id as string;
}

/** A Monday-to-Friday date `weeks` weeks after next Monday, plus `weekday` days (0 = Monday). */
export function weekdayDate(weeks: number, weekday = 0): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7) + weeks * 7 + weekday);
  return d.toISOString().slice(0, 10);
}

import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { TeamSettings, TeamSettingsPatch } from '../../contract';
import type { Database } from '../../store/db';
import { teams, type ServiceSchema } from '../db/schema';
import { NotFound } from './errors';

type Db = Database<ServiceSchema>;

/** Extension: a team's own settings (today: whether partial result sets are announced by webhook). */
export async function getTeamSettings(db: Db, teamId: string): Promise<z.infer<typeof TeamSettings>> {
  const [team] = await db.select({ partial: teams.partialResultsWebhooks }).from(teams).where(eq(teams.id, teamId));
  if (!team) throw new NotFound('Team');
  return { partial_results_webhooks: team.partial };
}

export async function updateTeamSettings(db: Db, teamId: string, patch: z.infer<typeof TeamSettingsPatch>): Promise<z.infer<typeof TeamSettings>> {
  if (patch.partial_results_webhooks !== undefined) {
    const updated = await db.update(teams).set({ partialResultsWebhooks: patch.partial_results_webhooks }).where(eq(teams.id, teamId)).returning({ id: teams.id });
    if (!updated.length) throw new NotFound('Team');
  }
  return getTeamSettings(db, teamId);
}

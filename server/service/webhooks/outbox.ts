import { eq } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { users, webhookOutbox, type ServiceSchema } from '../db/schema';

type Db = Database<ServiceSchema>;

/**
 * Records a webhook event in the outbox, inside the caller's transaction: the event exists
 * exactly when the change it reports does. The envelope is the production service's:
 * {event_type, user_id, client_user_id, team_id, data}. Delivery reads the outbox.
 */
export async function emitEvent(db: Db, teamId: string, eventType: string, userId: string, data: Record<string, unknown>) {
  const [user] = await db.select({ clientUserId: users.clientUserId }).from(users).where(eq(users.id, userId));
  await db.insert(webhookOutbox).values({
    teamId,
    eventType,
    payload: { event_type: eventType, user_id: userId, client_user_id: user?.clientUserId ?? null, team_id: teamId, data },
  });
}

import { eq } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { users, webhookOutbox, type ServiceSchema } from '../db/schema';
import { demandJob } from '../jobs/queue';
import { WEBHOOK_DISPATCH_KIND } from './kinds';

type Db = Database<ServiceSchema>;

/**
 * Records a webhook event in the outbox, inside the caller's transaction: the event exists
 * exactly when the change it reports does. The envelope is the production service's:
 * {event_type, user_id, client_user_id, team_id, data}. Delivery reads the outbox; the dispatcher
 * is woken at commit (it also looks every few seconds in case a notification was lost).
 */
export async function emitEvent(db: Db, teamId: string, eventType: string, userId: string, data: Record<string, unknown>) {
  const [user] = await db.select({ clientUserId: users.clientUserId }).from(users).where(eq(users.id, userId));
  await db.insert(webhookOutbox).values({
    teamId,
    eventType,
    payload: { event_type: eventType, user_id: userId, client_user_id: user?.clientUserId ?? null, team_id: teamId, data },
  });
  await demandJob(db, WEBHOOK_DISPATCH_KIND);
}

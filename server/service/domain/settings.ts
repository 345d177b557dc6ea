import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { settings, type ServiceSchema } from '../db/schema';

/**
 * A secret generated once and kept in the store, so every process on the same store, and every
 * restart, agrees on it (cursors signed before a restart stay valid).
 */
export async function persistentSecret(db: Database<ServiceSchema>, key: string): Promise<string> {
  await db
    .insert(settings)
    .values({ key, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  return row!.value;
}

import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { apiKeys, teams, type ServiceSchema } from '../db/schema';
import { announceApiKeyChange } from './apiKeyCache';
import { NotFound } from './errors';

type Db = Database<ServiceSchema>;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** `lsk_` + 43 url-safe characters (256 bits). The prefix lets people and secret scanners recognise it. */
export function generateApiKey(): string {
  return `lsk_${randomBytes(32).toString('base64url')}`;
}

export async function createTeam(db: Db, name: string, apiKey = generateApiKey()) {
  return db.transaction(async (tx) => {
    const [team] = await tx.insert(teams).values({ name }).returning({ id: teams.id });
    await tx.insert(apiKeys).values({ teamId: team!.id, keyHash: hashApiKey(apiKey), keyPrefix: apiKey.slice(0, 8) });
    return { teamId: team!.id, apiKey };
  });
}

/** Issues a new key; by default the team's earlier keys stop working at once. */
export async function rotateApiKey(db: Db, teamId: string, revokePrevious: boolean) {
  return db.transaction(async (tx) => {
    const [team] = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId));
    if (!team) throw new NotFound('Team');
    let revoked = 0;
    if (revokePrevious) {
      const rows = await tx
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.teamId, teamId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      revoked = rows.length;
      await announceApiKeyChange(tx, teamId);
    }
    const apiKey = generateApiKey();
    await tx.insert(apiKeys).values({ teamId, keyHash: hashApiKey(apiKey), keyPrefix: apiKey.slice(0, 8) });
    return { teamId, apiKey, revoked };
  });
}

export async function teamIdForApiKey(db: Db, key: string): Promise<string | null> {
  return teamIdForKeyHash(db, hashApiKey(key));
}

export async function teamIdForKeyHash(db: Db, keyHash: string): Promise<string | null> {
  const [row] = await db
    .select({ teamId: apiKeys.teamId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row?.teamId ?? null;
}

import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { seededRandom, type Random } from '../../lib/random';
import { wallTimeToInstantWithOffset, zoneOffsetSeconds } from '../../lib/timezones';
import { connectedSources, settings, teams, users, type ServiceSchema } from '../db/schema';
import { insertSessions, type SessionColumnValues } from '../domain/mindfulnessSessions';
import { createTeam, hashApiKey, teamIdForApiKey } from '../domain/teams';
import { apiKeys } from '../db/schema';
import { ensureDemoLabAccounts } from './labCatalogue';

type Db = Database<ServiceSchema>;

const DAY = 86_400_000;
const ZONES = [
  'America/New_York', 'America/New_York', 'America/Chicago', 'America/Chicago', 'America/Denver',
  'America/Phoenix', 'America/Los_Angeles', 'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu',
  'America/Puerto_Rico', 'Europe/London',
] as const;
const TRAVEL_ZONES = ['Europe/Paris', 'Asia/Tokyo', 'America/Mexico_City', 'Europe/Lisbon', 'America/New_York'] as const;

/** Providers that record mindfulness sessions, whether their data carries a UTC offset, and the source type. */
const MINDFUL_SOURCES = [
  { slug: 'apple_health_kit', withOffset: true, type: 'app' },
  { slug: 'oura', withOffset: true, type: 'device' },
  { slug: 'garmin', withOffset: true, type: 'device' },
  { slug: 'fitbit', withOffset: false, type: 'device' },
  { slug: 'whoop', withOffset: true, type: 'device' },
  { slug: 'health_connect', withOffset: false, type: 'app' },
  { slug: 'withings', withOffset: true, type: 'device' },
  { slug: 'ultrahuman', withOffset: true, type: 'device' },
  { slug: 'manual', withOffset: false, type: 'app' },
] as const;

export interface DemoSeedOptions {
  apiKey: string;
  users?: number;
  days?: number;
  now?: Date;
  seed?: number;
}

function clientUserId(rng: Random, i: number): string {
  const hex = () => rng.int(0, 0xffffffff).toString(16).padStart(8, '0');
  switch (i % 4) {
    case 0:
      return `pt-${hex()}`;
    case 1:
      return `mbr_${rng.int(0, 36 ** 6 - 1).toString(36).toUpperCase().padStart(6, '0')}`;
    case 2:
      return `cohort-${rng.pick(['a', 'b', 'c'])}-${String(i).padStart(5, '0')}`;
    default:
      return `ext-${hex()}-${hex().slice(0, 4)}`;
  }
}

/** Sessions as columns, ready for one set-based insert per batch (see domain/mindfulnessSessions.ts). */
class SessionColumns implements SessionColumnValues {
  userId: string[] = [];
  providerSlug: string[] = [];
  sourceType: string[] = [];
  startAt: Date[] = [];
  endAt: Date[] = [];
  value: number[] = [];
  timezoneOffset: (number | null)[] = [];
  get length() {
    return this.userId.length;
  }
}

/** Six months of sessions of one source: habits, quiet weeks, morning/evening practice, a trip abroad. */
function sessionsFor(rng: Random, out: SessionColumns, userId: string, source: (typeof MINDFUL_SOURCES)[number], zone: string, days: number, now: Date) {
  const habit = 0.25 + rng.next() * 0.6;
  const prefersMorning = rng.chance(0.55);
  const todayWall = Date.parse(new Date(now.getTime() + zoneOffsetSeconds(zone, now) * 1000).toISOString().slice(0, 10));
  const tripStart = rng.chance(0.3) ? rng.int(10, days - 20) : -1;
  const trip = rng.pick(TRAVEL_ZONES);
  let quietDaysLeft = 0;
  for (let d = days; d >= 0; d--) {
    if (quietDaysLeft > 0) {
      quietDaysLeft--;
      continue;
    }
    if (rng.chance(0.02)) quietDaysLeft = rng.int(3, 14); // a quiet stretch: illness, holidays, a lapsed habit
    if (!rng.chance(habit)) continue;
    const travelling = tripStart >= 0 && d <= tripStart && d > tripStart - 8;
    const dayZone = travelling && source.withOffset ? trip : zone;
    const sessions = rng.chance(0.2) ? rng.int(2, 3) : 1;
    for (let s = 0; s < sessions; s++) {
      const morning = s === 0 ? prefersMorning : !prefersMorning;
      const minuteOfDay = morning ? rng.int(5 * 60 + 30, 9 * 60) : rng.int(19 * 60, 23 * 60 + 30);
      const wall = todayWall - d * DAY + minuteOfDay * 60_000 + rng.int(0, 59) * 1000;
      const { instant: start, offsetSeconds } = wallTimeToInstantWithOffset(dayZone, wall);
      if (start.getTime() > now.getTime()) continue;
      const minutes = rng.pick([3, 5, 5, 8, 10, 10, 10, 12, 15, 15, 20, 25, 30]) + (rng.chance(0.3) ? 0.5 : 0);
      out.userId.push(userId);
      out.providerSlug.push(source.slug);
      out.sourceType.push(source.type);
      out.startAt.push(start);
      out.endAt.push(new Date(start.getTime() + minutes * 60_000));
      out.value.push(minutes);
      out.timezoneOffset.push(source.withOffset ? offsetSeconds : null);
    }
  }
}

/** Sessions held before they are written: bounds the seed's memory (each batch is one statement). */
const SESSION_BATCH = 50_000;

/**
 * Seeds the demo team when the store has no team yet. Deterministic for a given seed and `now`
 * (but for the random row ids). Set-based: the users, their sources and their sessions are
 * generated first and written in one transaction, a few statements in all.
 * Returns the demo team id, or null when the store already had data.
 */
export async function seedDemoIfEmpty(db: Db, opts: DemoSeedOptions): Promise<string | null> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(teams);
  if (n > 0) {
    await ensureDemoKey(db, opts.apiKey);
    return null;
  }
  const rng = seededRandom(opts.seed ?? 20261120);
  const now = opts.now ?? new Date();
  const days = opts.days ?? 182;
  const { teamId } = await createTeam(db, 'Demo team', opts.apiKey);
  await db.insert(settings).values({ key: 'demo_team_id', value: teamId }).onConflictDoNothing();
  await ensureDemoLabAccounts(db, teamId);

  const userCount = opts.users ?? 300;
  await db.transaction(async (tx) => {
    let people: (typeof users.$inferInsert)[] = [];
    let sources: (typeof connectedSources.$inferInsert)[] = [];
    let sessions = new SessionColumns();
    // Users and sources first (the sessions refer to them), in one statement each per batch.
    const flush = async () => {
      if (people.length) await tx.insert(users).values(people);
      if (sources.length) await tx.insert(connectedSources).values(sources);
      if (sessions.length) await insertSessions(tx, sessions);
      people = [];
      sources = [];
      sessions = new SessionColumns();
    };
    for (let i = 0; i < userCount; i++) {
      const zone = rng.pick(ZONES);
      const createdOn = new Date(now.getTime() - (days + 20) * DAY + (i / userCount) * (days + 10) * DAY + rng.int(0, 3_600_000));
      const hasZone = rng.chance(0.85);
      const userId = randomUUID();
      people.push({
        id: userId,
        teamId,
        clientUserId: clientUserId(rng, i),
        createdOn,
        fallbackTimeZone: hasZone ? zone : null,
        fallbackTimeZoneSource: hasZone ? rng.pick(['manual', 'apple_health_kit', 'oura']) : null,
        fallbackTimeZoneUpdatedAt: hasZone ? createdOn : null,
        fallbackBirthDate: rng.chance(0.7)
          ? `${rng.int(1942, 2004)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
          : null,
        fallbackBirthDateSource: 'manual',
        fallbackBirthDateUpdatedAt: createdOn,
        ingestionStart: rng.chance(0.05) ? new Date(now.getTime() - 60 * DAY).toISOString().slice(0, 10) : null,
      });
      const chosen = rng.shuffle(MINDFUL_SOURCES).slice(0, rng.int(2, 4));
      sources.push(...chosen.map((s) => ({ userId, providerSlug: s.slug, createdOn: new Date(createdOn.getTime() + rng.int(60_000, 5 * DAY)) })));
      // Sessions start up to six months back, even for users created later (sources backfill history).
      const effectiveZone = hasZone ? zone : 'UTC';
      for (const s of chosen) sessionsFor(rng, sessions, userId, s, effectiveZone, days, now);
      if (sessions.length > SESSION_BATCH) await flush();
    }
    await flush();
  });
  return teamId;
}

/** A DEMO_API_KEY set after the first start still opens the demo team. */
async function ensureDemoKey(db: Db, apiKey: string) {
  if (await teamIdForApiKey(db, apiKey)) return;
  const [demo] = await db.select().from(settings).where(eq(settings.key, 'demo_team_id'));
  if (!demo) return;
  await db.insert(apiKeys).values({ teamId: demo.value, keyHash: hashApiKey(apiKey), keyPrefix: apiKey.slice(0, 8) });
}

/** The demo team's id, when this store has one. */
export async function demoTeam(db: Db): Promise<string | null> {
  const [demo] = await db.select().from(settings).where(eq(settings.key, 'demo_team_id'));
  return demo?.value ?? null;
}

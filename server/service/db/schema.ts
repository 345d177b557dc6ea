import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Every service table lives in schema `service`, so the BFF's schema can share one PostgreSQL database. */
export const service = pgSchema('service');

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const teams = service.table('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** Keys are stored as SHA-256 digests: they are 256-bit random strings, so a slow hash adds nothing. */
export const apiKeys = service.table(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.keyHash), index('api_keys_team_idx').on(t.teamId)],
);

/** Service-wide settings that must survive restarts and be shared by processes (e.g. the cursor signing key). */
export const settings = service.table('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const providers = service.table('providers', {
  slug: text('slug').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo').notNull(),
});

export const users = service.table(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    clientUserId: text('client_user_id').notNull(),
    createdOn: timestamp('created_on', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    fallbackTimeZone: text('fallback_time_zone'),
    fallbackTimeZoneSource: text('fallback_time_zone_source'),
    fallbackTimeZoneUpdatedAt: timestamp('fallback_time_zone_updated_at', { withTimezone: true, mode: 'date' }),
    fallbackBirthDate: date('fallback_birth_date', { mode: 'string' }),
    fallbackBirthDateSource: text('fallback_birth_date_source'),
    fallbackBirthDateUpdatedAt: timestamp('fallback_birth_date_updated_at', { withTimezone: true, mode: 'date' }),
    ingestionStart: date('ingestion_start', { mode: 'string' }),
    ingestionEnd: date('ingestion_end', { mode: 'string' }),
  },
  (t) => [
    uniqueIndex('users_team_client_idx').on(t.teamId, t.clientUserId),
    index('users_team_order_idx').on(t.teamId, t.createdOn, t.id),
  ],
);

export const connectedSources = service.table(
  'connected_sources',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerSlug: text('provider_slug')
      .notNull()
      .references(() => providers.slug),
    createdOn: timestamp('created_on', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.providerSlug] })],
);

/** One mindfulness session as a source reported it. `timezone_offset` is seconds east of UTC, null when the source gives none. */
export const mindfulnessMinutes = service.table(
  'mindfulness_minutes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerSlug: text('provider_slug').notNull(),
    sourceType: text('source_type').notNull().default('unknown'),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }).notNull(),
    value: doublePrecision('value').notNull(),
    timezoneOffset: integer('timezone_offset'),
  },
  (t) => [index('mindfulness_user_start_idx').on(t.userId, t.startAt, t.id)],
);

export const serviceSchema = { teams, apiKeys, settings, providers, users, connectedSources, mindfulnessMinutes };
export type ServiceSchema = typeof serviceSchema;

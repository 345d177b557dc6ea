import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  jsonb,
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
  real,
} from 'drizzle-orm/pg-core';

/** Every service table lives in schema `service`, so the BFF's schema can share one PostgreSQL database. */
export const service = pgSchema('service');

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const teams = service.table('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** Announce each partial result set (`labtest.result.partial`), not only the final one. Off by default. */
  partialResultsWebhooks: boolean('partial_results_webhooks').notNull().default(false),
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

/** The lab catalogue (global): labs, their markers (biomarkers and panels) with expected results and LOINC. */
export const labs = service.table('labs', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  firstLineAddress: text('first_line_address').notNull(),
  city: text('city').notNull(),
  zipcode: text('zipcode').notNull(),
  collectionMethods: jsonb('collection_methods').$type<string[]>().notNull(),
  sampleTypes: jsonb('sample_types').$type<string[]>().notNull(),
});

export const markers = service.table(
  'markers',
  {
    id: integer('id').primaryKey(),
    labId: integer('lab_id')
      .notNull()
      .references(() => labs.id),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    providerId: text('provider_id').notNull(),
    type: text('type').notNull(),
    unit: text('unit'),
    price: text('price'),
    aLaCarteEnabled: boolean('a_la_carte_enabled').notNull().default(true),
    isOrderable: boolean('is_orderable').notNull().default(true),
    commonTatDays: integer('common_tat_days'),
    worstCaseTatDays: integer('worst_case_tat_days'),
    aoe: jsonb('aoe').$type<Record<string, unknown> | null>(),
    /** [{id, name, slug, lab_id, provider_id, required, loinc: {id, name, slug, code, unit}}] */
    expectedResults: jsonb('expected_results').$type<Record<string, unknown>[]>().notNull(),
  },
  (t) => [index('markers_lab_idx').on(t.labId), uniqueIndex('markers_lab_provider_idx').on(t.labId, t.providerId)],
);

/** Panels orderable as one test. team_id null: the shared catalogue; otherwise a team's own (e.g. auto-generated from an order set). */
export const labTests = service.table(
  'lab_tests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    labId: integer('lab_id')
      .notNull()
      .references(() => labs.id),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    sampleType: text('sample_type').notNull(),
    method: text('method').notNull(),
    price: doublePrecision('price').notNull(),
    status: text('status').notNull().default('active'),
    fasting: boolean('fasting').notNull().default(false),
    markerIds: jsonb('marker_ids').$type<number[]>().notNull(),
    autoGenerated: boolean('auto_generated').notNull().default(false),
    isDelegated: boolean('is_delegated').notNull().default(false),
    commonTatDays: integer('common_tat_days'),
    worstCaseTatDays: integer('worst_case_tat_days'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('lab_tests_team_idx').on(t.teamId), index('lab_tests_lab_idx').on(t.labId)],
);

export const labAccounts = service.table(
  'lab_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    labSlug: text('lab_slug').notNull(),
    status: text('status').notNull(),
    delegatedFlow: text('delegated_flow').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    accountName: text('account_name'),
    orgId: text('org_id'),
    defaultClinicalNotes: text('default_clinical_notes'),
    businessUnits: jsonb('business_units').$type<string[]>(),
    /** billing type → US states where it is allowed */
    allowedBilling: jsonb('allowed_billing').$type<Record<string, string[]>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('lab_accounts_team_idx').on(t.teamId, t.createdAt)],
);

export const orders = service.table(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    labTestId: uuid('lab_test_id')
      .notNull()
      .references(() => labTests.id),
    labAccountId: uuid('lab_account_id').references(() => labAccounts.id),
    collectionMethod: text('collection_method').notNull(),
    status: text('status').notNull(),
    lowLevelStatus: text('low_level_status').notNull(),
    origin: text('origin').notNull().default('created'),
    patientDetails: jsonb('patient_details').$type<Record<string, unknown>>().notNull(),
    patientAddress: jsonb('patient_address').$type<Record<string, unknown>>().notNull(),
    physician: jsonb('physician').$type<Record<string, unknown> | null>(),
    billingType: text('billing_type'),
    icdCodes: jsonb('icd_codes').$type<string[] | null>(),
    consents: jsonb('consents').$type<unknown[] | null>(),
    aoeAnswers: jsonb('aoe_answers').$type<unknown[] | null>(),
    /** The insurance billed (commercial_insurance), as given minus card images; its id is the order read's health_insurance_id. */
    healthInsurance: jsonb('health_insurance').$type<Record<string, unknown> | null>(),
    healthInsuranceId: uuid('health_insurance_id'),
    priority: boolean('priority').notNull().default(false),
    activateBy: text('activate_by'),
    passthrough: text('passthrough'),
    clinicalNotes: text('clinical_notes'),
    sampleId: text('sample_id'),
    notes: text('notes'),
    updateReason: text('update_reason'),
    originalOrderId: uuid('original_order_id'),
    detailsId: uuid('details_id').notNull().defaultRandom(),
    appointmentId: uuid('appointment_id'),
    shipment: jsonb('shipment').$type<Record<string, unknown> | null>(),
    interpretation: text('interpretation'),
    hasMissingResults: boolean('has_missing_results'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_team_created_idx').on(t.teamId, t.createdAt),
    index('orders_team_status_idx').on(t.teamId, t.lowLevelStatus),
    index('orders_user_idx').on(t.userId),
  ],
);

/** Each status an order went through, in order: `status` is the full OrderStatus, e.g. collecting_sample.testkit.transit_lab. */
export const orderEvents = service.table(
  'order_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
);

/** X-Idempotency-Key records: the request's digest and, once done, the answer, written in the order's transaction. */
export const idempotencyKeys = service.table(
  'idempotency_keys',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.operation, t.key] })],
);

/**
 * The one durable job table for background work (order lifecycle, async booking, parsing,
 * webhook delivery). A worker leases a due job (FOR UPDATE SKIP LOCKED on PostgreSQL), so work
 * survives a restart and two processes never run the same job at once.
 */
export const jobs = service.table(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Whose work this is (a team), for kinds claimed fairly: round-robin across keys, a cap per key. */
    fairKey: text('fair_key'),
    /** When the job was last claimed: a key's last turn is the latest of these. */
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('jobs_due_idx').on(t.runAt).where(sql`done_at IS NULL AND failed_at IS NULL`),
    index('jobs_kind_idx').on(t.kind),
    index('jobs_fair_idx').on(t.kind, t.fairKey, t.claimedAt),
    // A team's pending work of a kind (the parse queue's stats), without walking every team's pending jobs.
    index('jobs_pending_fair_idx').on(t.kind, t.fairKey).where(sql`done_at IS NULL AND failed_at IS NULL`),
  ],
);

/** Webhook events waiting for (or past) delivery; delivery itself comes with the webhooks work. */
export const webhookOutbox = service.table(
  'webhook_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: uuid('event_id').notNull().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** The envelope: {event_type, user_id, client_user_id, team_id, data} */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the dispatcher fanned the event out to the team's endpoints (null: not yet). */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('webhook_outbox_team_idx').on(t.teamId, t.id),
    index('webhook_outbox_undispatched_idx').on(t.id).where(sql`dispatched_at IS NULL`),
  ],
);

/**
 * A team's webhook receivers. `secret` is `whsec_<base64>`: it must be read back to sign every
 * delivery (HMAC), so it is kept as is; it is answered only on creation and by GET …/secret.
 * `event_types` lists the types (or `family.*` prefixes) it receives; `["*"]` is every type.
 */
export const webhookEndpoints = service.table(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    eventTypes: jsonb('event_types').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    disabledReason: text('disabled_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_team_idx').on(t.teamId, t.createdAt)],
);

/**
 * One event for one endpoint. `seq` is the outbox row's id (the emission order); `subject` the
 * envelope's data.id: for one endpoint, a pending delivery holds back later ones of its subject.
 * `attempt_count` counts the attempts of the current round (a replay starts a new one);
 * `job_id` is the durable job that makes the next attempt.
 */
export const webhookDeliveries = service.table(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' })
      .notNull()
      .references(() => webhookOutbox.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    subject: text('subject'),
    status: text('status').notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    jobId: bigint('job_id', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_seq_idx').on(t.endpointId, t.seq),
    index('webhook_deliveries_pending_subject_idx').on(t.endpointId, t.subject, t.seq).where(sql`status = 'pending'`),
    index('webhook_deliveries_pending_idx').on(t.status).where(sql`status = 'pending'`),
  ],
);

/** Every attempt of a delivery: when, how long, the receiver's status code or what went wrong. Never the payload. */
export const webhookDeliveryAttempts = service.table(
  'webhook_delivery_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

/**
 * At-home phlebotomy appointments (issue 4). `provider_record` is what the provider adapter was sent
 * and answered (including the address's access_notes). Booking keys are not stored: a key names a
 * slot, and `appointment_slots` keeps how many of its places are taken.
 */
export const appointments = service.table(
  'appointments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    type: text('type').notNull().default('phlebotomy'),
    provider: text('provider').notNull(),
    providerId: text('provider_id').notNull(),
    status: text('status').notNull(),
    eventStatus: text('event_status').notNull(),
    address: jsonb('address').$type<Record<string, unknown>>().notNull(),
    location: jsonb('location').$type<{ lng: number; lat: number }>().notNull(),
    ianaTimezone: text('iana_timezone'),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }),
    price: integer('price'),
    isPriority: boolean('is_priority').notNull().default(false),
    appointmentNotes: text('appointment_notes'),
    /** sync | async: how the booking waits for the provider. */
    mode: text('mode').notNull(),
    /** When a pending attempt is given up (async timeout) or a sync reservation is rolled back. */
    confirmDeadline: timestamp('confirm_deadline', { withTimezone: true, mode: 'date' }),
    providerRecord: jsonb('provider_record').$type<Record<string, unknown>>().notNull(),
    eventData: jsonb('event_data').$type<Record<string, unknown>>().notNull(),
    externalId: text('external_id'),
    cancellationReasonId: text('cancellation_reason_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('appointments_order_idx').on(t.orderId, t.createdAt)],
);

export const appointmentEvents = service.table(
  'appointment_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('appointment_events_appointment_idx').on(t.appointmentId, t.id)],
);

/**
 * Provider capacity per slot: `booked` places of `capacity` are taken. A booking or reschedule takes a
 * place with one conditional UPDATE (booked < capacity), so concurrent bookings never oversell a slot;
 * any number of orders may book with the same booking key while a place is left.
 */
export const appointmentSlots = service.table(
  'appointment_slots',
  {
    provider: text('provider').notNull(),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }).notNull(),
    capacity: integer('capacity').notNull(),
    booked: integer('booked').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.provider, t.startAt] })],
);

/** Binary column; PGlite hands back a Uint8Array and pg a Buffer: both become a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Lab-report parsing jobs (wire-facts §7 plus the review-queue extensions). `stage` says where a
 * job is within its status: queued → parsing → awaiting_review | done | failed.
 */
export const parsingJobs = service.table(
  'parsing_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Arrival order: the list's keyset (timestamps tie, and PostgreSQL keeps microseconds JavaScript drops). */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    stage: text('stage').notNull(),
    progress: real('progress').notNull().default(0),
    reviewRequested: boolean('review_requested').notNull().default(false),
    needsHumanReview: boolean('needs_human_review').notNull().default(false),
    isReviewed: boolean('is_reviewed').notNull().default(false),
    data: jsonb('data').$type<object>(),
    reviewReasons: jsonb('review_reasons').$type<object>(),
    stats: jsonb('stats').$type<object>(),
    failureReason: text('failure_reason'),
    review: jsonb('review').$type<object>(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    fileSize: integer('file_size').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('parsing_jobs_team_seq_idx').on(t.teamId, t.seq),
    index('parsing_jobs_team_stage_idx').on(t.teamId, t.stage, t.seq),
  ],
);

/** The uploaded bytes, apart from the job row so lists never read them. */
export const parsingJobFiles = service.table('parsing_job_files', {
  jobId: uuid('job_id')
    .primaryKey()
    .references(() => parsingJobs.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
});

/**
 * An order's result report as the lab sends it: one row per order, replaced as partial results grow
 * into final ones. The values themselves are rows of `biomarker_results`.
 */
export const orderResults = service.table(
  'order_results',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `partial` while the lab is still working, then `final`. */
    status: text('status').notNull(),
    specimenNumber: text('specimen_number').notNull(),
    /** The lab's report header: patient, laboratory and its CLIA number, provider, account (LabResultsMetadata without status). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    missingResults: jsonb('missing_results').$type<Record<string, unknown>[]>().notNull().default([]),
    interpretation: text('interpretation').notNull(),
    collectedAt: timestamp('collected_at', { withTimezone: true, mode: 'date' }),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }),
    reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When `labtest.result.critical` went out: once per order. */
    criticalNotifiedAt: timestamp('critical_notified_at', { withTimezone: true, mode: 'date' }),
    /** Extension: who acknowledged the critical value (as the caller names them), when, and their note. */
    criticalAcknowledgedAt: timestamp('critical_acknowledged_at', { withTimezone: true, mode: 'date' }),
    criticalAcknowledgedBy: text('critical_acknowledged_by'),
    criticalAcknowledgementNote: text('critical_acknowledgement_note'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_results_team_critical_idx').on(t.teamId, t.interpretation, t.criticalAcknowledgedAt)],
);

/**
 * Every value of an analyte for a patient: results of orders and of approved lab reports, with the
 * value as reported and, where UCUM can convert it, in the analyte's one unit (the history's charts).
 */
export const biomarkerResults = service.table(
  'biomarker_results',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `order` or `lab_report`. */
    source: text('source').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    parsingJobId: uuid('parsing_job_id').references(() => parsingJobs.id, { onDelete: 'cascade' }),
    /** Position in its report. */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    loinc: text('loinc'),
    loincSlug: text('loinc_slug'),
    result: text('result').notNull(),
    type: text('type').notNull(),
    unit: text('unit'),
    value: doublePrecision('value'),
    referenceRange: text('reference_range'),
    minRangeValue: doublePrecision('min_range_value'),
    maxRangeValue: doublePrecision('max_range_value'),
    isAboveMaxRange: boolean('is_above_max_range'),
    isBelowMinRange: boolean('is_below_min_range'),
    interpretation: text('interpretation'),
    notes: text('notes'),
    sourceMarkers: jsonb('source_markers').$type<Record<string, unknown>[] | null>(),
    performingLaboratory: text('performing_laboratory'),
    sourceSampleId: text('source_sample_id'),
    normalizedValue: doublePrecision('normalized_value'),
    normalizedUnit: text('normalized_unit'),
    /** When the sample was taken (the history's time axis). */
    observedAt: timestamp('observed_at', { withTimezone: true, mode: 'date' }).notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('biomarker_results_user_loinc_idx').on(t.userId, t.loinc, t.observedAt),
    index('biomarker_results_order_idx').on(t.orderId, t.position),
    index('biomarker_results_job_idx').on(t.parsingJobId),
  ],
);

export const serviceSchema = {
  teams,
  apiKeys,
  settings,
  providers,
  users,
  connectedSources,
  mindfulnessMinutes,
  labs,
  markers,
  labTests,
  labAccounts,
  orders,
  orderEvents,
  idempotencyKeys,
  jobs,
  webhookOutbox,
  webhookEndpoints,
  webhookDeliveries,
  webhookDeliveryAttempts,
  appointments,
  appointmentEvents,
  appointmentSlots,
  parsingJobs,
  parsingJobFiles,
  orderResults,
  biomarkerResults,
};
export type ServiceSchema = typeof serviceSchema;

import { bigint, boolean, index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** The BFF's own data, in its own schema: it never reads the service's tables. */
export const bff = pgSchema('bff');

export const staff = bff.table(
  'staff',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    role: text('role').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    /** TOTP (RFC 6238) secret, base32; set once the member confirmed a code from it. */
    mfaSecret: text('mfa_secret'),
    mfaEnabledAt: timestamp('mfa_enabled_at', { withTimezone: true, mode: 'date' }),
    /** A secret offered by an enrolment and not yet confirmed (a new enrolment replaces it). */
    mfaPendingSecret: text('mfa_pending_secret'),
    /** The last TOTP time step accepted: a code is good once, however long its window. */
    mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
  },
  (t) => [uniqueIndex('staff_email_idx').on(t.email)],
);

/** Per-role sign-in rules set by admins (a role without a row has the defaults). */
export const rolePolicies = bff.table('role_policies', {
  role: text('role').primaryKey(),
  mfaRequired: boolean('mfa_required').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Failed sign-ins per account (`account:<email>`) and per client address (`address:<ip>`), kept in
 * the store so a lock survives a restart and holds across every BFF process on the database.
 */
export const signInThrottle = bff.table('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
});

/** Server-side sessions; the cookie carries a random token whose SHA-256 is the key here. */
export const sessions = bff.table(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_staff_idx').on(t.staffId)],
);

/** Who looked at or changed what, and when. Record ids and counts only: never health data itself. */
export const auditEvents = bff.table(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    staffId: uuid('staff_id'),
    staffEmail: text('staff_email'),
    /** The member's role at the time (roles change; the trail keeps what was). */
    staffRole: text('staff_role'),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    recordIds: jsonb('record_ids').$type<string[]>().notNull().default([]),
    /** The patients (service user ids) whose data the access touched: "who saw this patient's data". */
    patientIds: jsonb('patient_ids').$type<string[]>().notNull().default([]),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    outcome: text('outcome').notNull().default('ok'),
    statusCode: integer('status_code'),
    ip: text('ip'),
    /**
     * The chain: SHA-256 over this event's content and the previous event's hash. Editing,
     * removing or reordering an event breaks every hash after it (see audit/chain.ts). Null for
     * events written before the chain began.
     */
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [index('audit_at_idx').on(t.at), index('audit_staff_idx').on(t.staffId, t.at), index('audit_patient_idx').using('gin', t.patientIds)],
);

/** Page cursors of cursor-paginated upstreams, so page N costs one upstream call after a restart too. */
export const cursorCache = bff.table(
  'cursor_cache',
  {
    key: text('key').notNull(),
    page: integer('page').notNull(),
    cursor: text('cursor').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('cursor_cache_key_page_idx').on(t.key, t.page), index('cursor_cache_expiry_idx').on(t.expiresAt)],
);

/**
 * Staff work on orders that need attention (internal: never sent to the lab or the service). One row
 * per order once someone claimed or resolved it. A resolution remembers the status event it answered
 * (`resolved_status_event_id`): when the order's status moves on, the order is back in the queue.
 */
export const orderTriage = bff.table(
  'order_triage',
  {
    orderId: text('order_id').primaryKey(),
    /** The staff team (queue) the order is routed to, when one is named. */
    team: text('team'),
    ownerId: uuid('owner_id').references(() => staff.id, { onDelete: 'set null' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    outcome: text('outcome'),
    resolutionNote: text('resolution_note'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolvedBy: uuid('resolved_by').references(() => staff.id, { onDelete: 'set null' }),
    resolvedStatus: text('resolved_status'),
    resolvedStatusEventId: integer('resolved_status_event_id'),
    /** The order a reship or recreate placed. */
    replacementOrderId: text('replacement_order_id'),
  },
  (t) => [index('order_triage_owner_idx').on(t.ownerId)],
);

/** Staff notes on an order (health-related free text: audited when read or written, never logged). */
export const orderNotes = bff.table(
  'order_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: text('order_id').notNull(),
    authorId: uuid('author_id').references(() => staff.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_notes_order_idx').on(t.orderId, t.createdAt)],
);

export const bffSchema = { staff, sessions, auditEvents, cursorCache, rolePolicies, signInThrottle, orderTriage, orderNotes };
export type BffSchema = typeof bffSchema;

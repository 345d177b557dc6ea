/**
 * Order triage: the staff's own work on orders that need attention (claims, notes, resolutions).
 * It lives in the BFF's store and is never sent to the service or the lab. Plain zod: the
 * dashboard imports these too.
 */
import { z } from 'zod';
import { hasNoNul } from '../../contract';
import { OrderRecord } from './orders';

/** A staff note or a resolution note: free text, bounded. */
export const TRIAGE_NOTE_MAX = 2000;
/** Ids one bulk action takes (a list page's selection). */
export const TRIAGE_BULK_MAX = 100;

/** How a triaged order was resolved. A fixed list: the queue reports count by it. */
export const TRIAGE_OUTCOMES = ['reshipped', 'recreated', 'patient_contacted', 'lab_contacted', 'no_action_needed', 'cancelled'] as const;
export type TriageOutcome = (typeof TRIAGE_OUTCOMES)[number];
export const TRIAGE_OUTCOME_LABELS: Record<TriageOutcome, string> = {
  reshipped: 'Kit reshipped',
  recreated: 'Order recreated',
  patient_contacted: 'Patient contacted',
  lab_contacted: 'Lab contacted',
  no_action_needed: 'No action needed',
  cancelled: 'Order cancelled',
};

/** No NUL and no lone surrogate: the store and the audit's JSON refuse them. */
const noNul = (s: string) => hasNoNul(s) && !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
const noteText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(TRIAGE_NOTE_MAX, `${what} must be at most ${TRIAGE_NOTE_MAX} characters`)
    .refine(noNul, `${what} must not contain NUL or lone surrogates`);

const StaffRef = z.object({ id: z.string(), name: z.string(), email: z.string() });

/** An order's triage state (also on each record of the needs-attention list, as `triage`). */
export const OrderTriageState = z
  .object({
    order_id: z.string(),
    team: z.string().nullable(),
    owner: StaffRef.nullable().describe('Who works on it; null when unclaimed'),
    claimed_at: z.string().nullable(),
    outcome: z.string().nullable().describe(`One of ${TRIAGE_OUTCOMES.join(', ')}; null while open`),
    resolution_note: z.string().nullable(),
    resolved_at: z.string().nullable(),
    resolved_by: StaffRef.nullable(),
    resolved_status: z.string().nullable().describe('The order status the resolution answered'),
    replacement_order_id: z.string().nullable().describe('The order a reship or recreate placed'),
    open: z.boolean().describe('False once resolved, until the order’s status changes again'),
  })
  .meta({ id: 'OrderTriageState' });
export type OrderTriageState = z.infer<typeof OrderTriageState>;

/** A record of the needs-attention list: the order, its triage state and when its current status began. */
export const TriageOrderRecord = OrderRecord.extend({
  triage: OrderTriageState.nullable(),
  status_since: z.string().nullable().describe('When the order’s current status began (its last status change)'),
}).meta({ id: 'TriageOrderRecord' });
export type TriageOrderRecord = z.infer<typeof TriageOrderRecord>;

export const ClaimBody = z
  .object({
    force: z.boolean().optional().describe('Take the claim over from someone else'),
    team: z.string().trim().min(1).max(60).optional().describe('The staff team (queue) to route it to'),
  })
  .meta({ id: 'ClaimBody' });

export const UnclaimBody = z.object({ force: z.boolean().optional().describe('Release someone else’s claim') }).meta({ id: 'UnclaimBody' });

export const ResolveBody = z
  .object({ outcome: z.enum(TRIAGE_OUTCOMES, { error: `must be one of ${TRIAGE_OUTCOMES.join(', ')}` }), note: noteText('note') })
  .meta({ id: 'ResolveBody' });
export type ResolveBody = z.infer<typeof ResolveBody>;

/** Reship or recreate a lost kit: the service places the new order, the resolution is recorded with the note. */
export const ReplaceKitBody = z.object({ note: noteText('note') }).meta({ id: 'ReplaceKitBody' });

export const OrderNoteRecord = z
  .object({ id: z.string(), order_id: z.string(), author: StaffRef.nullable(), body: z.string(), created_at: z.string() })
  .meta({ id: 'OrderNoteRecord' });
export type OrderNoteRecord = z.infer<typeof OrderNoteRecord>;
export const AddNoteBody = z.object({ body: noteText('body') }).meta({ id: 'AddNoteBody' });

/** Cancelling an order from the dashboard: the reason is kept as a staff note (the service's cancel takes none). */
export const CancelOrderBody = z.object({ reason: noteText('reason').optional() }).meta({ id: 'CancelOrderBody' });

const BulkIds = z
  .array(z.string().min(1).max(100))
  .min(1, 'select at least one order')
  .max(TRIAGE_BULK_MAX, `at most ${TRIAGE_BULK_MAX} orders at once`);
export const BulkClaimBody = z.object({ ids: BulkIds, force: z.boolean().optional() }).meta({ id: 'BulkClaimBody' });
export const BulkResolveBody = ResolveBody.extend({ ids: BulkIds }).meta({ id: 'BulkResolveBody' });

/**
 * A bulk action's answer: one result per id, in the order given. Each id is done on its own: one
 * failure does not undo the others.
 */
export const BulkResult = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        status: z.number().int().describe('What the single action would have answered'),
        message: z.string().optional(),
        code: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'BulkResult' });
export type BulkResult = z.infer<typeof BulkResult>;

export const ReplaceKitResult = z
  .object({ triage: OrderTriageState, order: OrderRecord.describe('The new order') })
  .meta({ id: 'ReplaceKitResult' });
export type ReplaceKitResult = z.infer<typeof ReplaceKitResult>;

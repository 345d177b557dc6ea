/**
 * `GET /api/overview`: what needs whom today, as counts only (no patient data leaves). Each queue's
 * key is present only when the signed-in role may see that queue; a role that may see nothing of a
 * queue does not get the key (the dashboard shows no card for it). Each queue is counted on its own:
 * one whose count could not be read answers `{error}` (OverviewQueueError) and the others still count.
 */
import { z } from 'zod';
import { IanaTimeZone } from '../../contract';

/** Queues that are walked page by page stop here: the count then reads "500+". */
export const OVERVIEW_WALK_CAP = 500;
// The menu's badges (the dashboard's first page) need these two without zod and the schemas.
export { OVERVIEW_POLL_MS, isQueueError } from './constants';

export const OverviewQuery = z.object({
  time_zone: IanaTimeZone.describe('The viewer’s zone: "today" and "tomorrow" are its calendar days'),
});

/** A count; `capped` when the walk stopped at OVERVIEW_WALK_CAP and there are more. */
export const OverviewCount = z.object({
  count: z.number().int(),
  capped: z.boolean(),
});
export type OverviewCount = z.infer<typeof OverviewCount>;

/** One calendar day in the viewer's zone: its date and its bounds (inclusive), for the list's filter. */
const OverviewDay = OverviewCount.extend({
  date: z.string().describe('YYYY-MM-DD in `time_zone`'),
  from: z.string().describe("The day's first instant (ISO-8601, Z)"),
  to: z.string().describe("The day's last millisecond (ISO-8601, Z)"),
});

/** A queue whose count could not be read this time: why, in words for the dashboard (no health data). */
export const OverviewQueueError = z
  .object({ error: z.string().describe('Why the count could not be read, e.g. "The service cannot be reached; try again in a moment"') })
  .meta({ id: 'OverviewQueueError' });
export type OverviewQueueError = z.infer<typeof OverviewQueueError>;
/** A queue's count, or why it could not be read. */
const orError = <T extends z.ZodType>(queue: T) => z.union([queue, OverviewQueueError]);

const OrdersNeedingAttention = z.object({
  count: z.number().int(),
  by_reason: z.array(z.object({ reason: z.string().describe('The low-level status'), count: z.number().int() })),
});
const ReportsAwaitingReview = OverviewCount.extend({ oldest_created_at: z.string().nullable() });
const AppointmentsUpcoming = z.object({ today: OverviewDay, tomorrow: OverviewDay });
/** Failed deliveries, with the endpoints they failed on: the dashboard opens an endpoint's failed deliveries. */
const FailedWebhookDeliveries = OverviewCount.extend({
  endpoints: z
    .array(z.object({ id: z.string().describe('The webhook endpoint'), count: z.number().int() }))
    .describe('The endpoints with failed deliveries (as far as the walk went), each with its count'),
});
export type FailedWebhookDeliveries = z.infer<typeof FailedWebhookDeliveries>;
export type OrdersNeedingAttention = z.infer<typeof OrdersNeedingAttention>;
export type ReportsAwaitingReview = z.infer<typeof ReportsAwaitingReview>;
export type AppointmentsUpcoming = z.infer<typeof AppointmentsUpcoming>;

export const Overview = z
  .object({
    generated_at: z.string().describe('When the counts were read (ISO-8601, Z)'),
    time_zone: z.string(),
    /** `orders:read`: orders in a low-level status that needs lab operations, by that status. */
    orders_needing_attention: orError(OrdersNeedingAttention).optional(),
    /** `results:acknowledge`: orders with a critical result nobody has acknowledged yet. */
    critical_results_unacknowledged: orError(OverviewCount).optional(),
    /** `parser:review`: lab reports in the review queue, and when the longest-waiting one arrived. */
    reports_awaiting_review: orError(ReportsAwaitingReview).optional(),
    /** `appointments:write`: appointment requests the provider has not given a time yet. */
    appointment_requests_waiting: orError(OverviewCount).optional(),
    /** `appointments:read`: active appointments starting today and tomorrow in `time_zone`. */
    appointments_upcoming: orError(AppointmentsUpcoming).optional(),
    /** `webhooks:manage`: webhook deliveries that failed, over all of the team's endpoints. */
    failed_webhook_deliveries: orError(FailedWebhookDeliveries).optional(),
  })
  .meta({ id: 'Overview' });
export type Overview = z.infer<typeof Overview>;

import { NEEDS_ATTENTION_LOW_STATUSES } from '../../../contract';
/**
 * Order statuses. The wire's OrderStatus is `<top>.<collection method>.<low>` (wire-facts §4.5);
 * both parts may gain values, so readers must never match them exhaustively.
 */
export type Top = 'received' | 'collecting_sample' | 'sample_with_lab' | 'completed' | 'cancelled' | 'failed';

export interface Step {
  top: Top;
  low: string;
}

export const orderStatus = (top: string, method: string, low: string) => `${top}.${method}.${low}`;

export function parseOrderStatus(status: string): { top: string; method: string; low: string } | null {
  const parts = status.split('.');
  if (parts.length !== 3 || parts.some((p) => !p)) return null;
  return { top: parts[0]!, method: parts[1]!, low: parts[2]! };
}

const s = (top: Top, low: string): Step => ({ top, low });

/** The usual path of an order per collection method, after it is created (received.ordered). */
export const HAPPY_PATHS: Record<string, Step[]> = {
  testkit: [
    s('received', 'requisition_created'),
    s('collecting_sample', 'transit_customer'),
    s('collecting_sample', 'out_for_delivery'),
    s('collecting_sample', 'with_customer'),
    s('collecting_sample', 'transit_lab'),
    s('sample_with_lab', 'delivered_to_lab'),
    s('completed', 'completed'),
  ],
  walk_in_test: [
    s('received', 'requisition_created'),
    s('collecting_sample', 'appointment_pending'),
    s('collecting_sample', 'appointment_scheduled'),
    s('sample_with_lab', 'partial_results'),
    s('completed', 'completed'),
  ],
  at_home_phlebotomy: [
    s('received', 'requisition_created'),
    s('collecting_sample', 'appointment_pending'),
    s('collecting_sample', 'appointment_scheduled'),
    s('collecting_sample', 'draw_completed'),
    s('sample_with_lab', 'partial_results'),
    s('completed', 'completed'),
  ],
  on_site_collection: [
    s('received', 'requisition_created'),
    s('sample_with_lab', 'draw_completed'),
    s('sample_with_lab', 'partial_results'),
    s('completed', 'completed'),
  ],
};

/** Final statuses: nothing moves an order out of these. */
export const FINAL_TOPS = new Set(['completed', 'cancelled', 'failed']);

/** Orders a lab operations person should look at: problems in transit, failures, lost samples. */
export const NEEDS_ATTENTION_LOW = new Set<string>(NEEDS_ATTENTION_LOW_STATUSES);

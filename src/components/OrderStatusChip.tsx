/**
 * Lab order statuses as chips. The service's status enums are non-exhaustive: an unknown value is
 * shown raw on a neutral (outlined) chip, never dropped and never an error.
 */
import type { ChipProps } from '@mui/material';
import type { ORDER_LOW_LEVEL_STATUSES as LOW_LEVEL_VALUES, ORDER_TOP_LEVEL_STATUSES as TOP_LEVEL_VALUES } from '../../server/contract';
import { StatusChip, type KnownStatus } from './StatusChip';

type LowLevelStatus = (typeof LOW_LEVEL_VALUES)[number];
type TopLevelStatus = (typeof TOP_LEVEL_VALUES)[number];

const s = (label: string, color: ChipProps['color'], description?: string): KnownStatus => ({ label, color, description });

/** Low-level statuses (`low_level_status`, the last part of an event's status): one for each of the contract's. */
export const ORDER_LOW_LEVEL_STATUSES: Record<string, KnownStatus> = {
  ordered: s('Ordered', 'info'),
  requisition_created: s('Requisition created', 'info'),
  requisition_bypassed: s('Requisition bypassed', 'info'),
  transit_customer: s('In transit to patient', 'primary'),
  out_for_delivery: s('Out for delivery', 'primary'),
  with_customer: s('With patient', 'primary'),
  transit_lab: s('In transit to lab', 'primary'),
  delivered_to_lab: s('Delivered to lab', 'secondary'),
  appointment_pending: s('Appointment pending', 'primary'),
  appointment_scheduled: s('Appointment scheduled', 'primary'),
  appointment_cancelled: s('Appointment cancelled', 'warning'),
  draw_completed: s('Draw completed', 'secondary'),
  awaiting_registration: s('Awaiting registration', 'secondary'),
  registered: s('Registered', 'secondary'),
  partial_results: s('Partial results', 'secondary'),
  completed: s('Completed', 'success'),
  cancelled: s('Cancelled', 'default'),
  do_not_process: s('Do not process', 'default'),
  redraw_available: s('Redraw available', 'warning'),
  problem_in_transit_customer: s('Problem in transit to patient', 'warning', 'The kit ran into a problem on its way to the patient'),
  problem_in_transit_lab: s('Problem in transit to lab', 'warning', 'The sample ran into a problem on its way to the lab'),
  failure_to_deliver_to_customer: s('Failed to deliver to patient', 'error'),
  failure_to_deliver_to_lab: s('Failed to deliver to lab', 'error'),
  sample_error: s('Sample error', 'error'),
  lost: s('Lost', 'error'),
} satisfies Record<LowLevelStatus, KnownStatus>;

/** Top-level statuses (`status`). */
export const ORDER_TOP_LEVEL_STATUSES: Record<string, KnownStatus> = {
  received: s('Received', 'info'),
  collecting_sample: s('Collecting sample', 'primary'),
  sample_with_lab: s('Sample with lab', 'secondary'),
  completed: s('Completed', 'success'),
  cancelled: s('Cancelled', 'default'),
  failed: s('Failed', 'error'),
} satisfies Record<TopLevelStatus, KnownStatus>;

/** Top-level statuses nothing moves an order out of: such orders cannot be cancelled. */
export const FINAL_TOP_LEVEL_STATUSES: readonly TopLevelStatus[] = ['completed', 'cancelled', 'failed'];

export const OrderStatusChip = ({
  value,
  level = 'low',
  size,
}: {
  value: string | null | undefined;
  level?: 'low' | 'top';
  size?: ChipProps['size'];
}) => <StatusChip value={value} known={level === 'top' ? ORDER_TOP_LEVEL_STATUSES : ORDER_LOW_LEVEL_STATUSES} size={size} />;

/** An event's OrderStatus is `<top>.<collection method>.<low>`; anything else is kept whole. */
export function parseEventStatus(status: string): { top: string; method: string; low: string } | null {
  const parts = status.split('.');
  if (parts.length !== 3 || parts.some((p) => p === '')) return null;
  return { top: parts[0]!, method: parts[1]!, low: parts[2]! };
}

/** Label for a low-level status, or the raw value when it is not one we know. */
export function lowLevelStatusLabel(value: string): string {
  return Object.hasOwn(ORDER_LOW_LEVEL_STATUSES, value) ? ORDER_LOW_LEVEL_STATUSES[value]!.label : value;
}

/** Each overview queue's card title: one place, so a card that could not count carries the same name. */
export const QUEUE_TITLES = {
  critical_results_unacknowledged: 'Critical results to acknowledge',
  orders_needing_attention: 'Orders needing attention',
  reports_awaiting_review: 'Lab reports awaiting review',
  appointment_requests_waiting: 'Appointment requests waiting for a time',
  appointments_upcoming: 'Appointments today',
  failed_webhook_deliveries: 'Failed webhook deliveries',
} as const;
export type QueueKey = keyof typeof QUEUE_TITLES;

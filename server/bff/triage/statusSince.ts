/**
 * When an order's current status began: the first event of the last run of events with the same
 * status (a repeated status event is not a change). Pure, so the queue and the resolution agree.
 */
export interface StatusEvent {
  id: number;
  created_at: string;
  status: string;
}

export interface StatusStart {
  eventId: number;
  status: string;
  at: string;
}

export function currentStatusStart(events: readonly StatusEvent[]): StatusStart | null {
  if (events.length === 0) return null;
  const sorted = [...events].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id);
  let i = sorted.length - 1;
  const status = sorted[i]!.status;
  while (i > 0 && sorted[i - 1]!.status === status) i--;
  const start = sorted[i]!;
  return { eventId: start.id, status, at: start.created_at };
}

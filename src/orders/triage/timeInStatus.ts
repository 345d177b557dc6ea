/** "3 d 4 h", "5 h 12 min", "8 min": how long since `since`, for the queue's time-in-status column. */
export function formatTimeInStatus(since: string | null | undefined, now = Date.now()): string {
  if (!since) return '—';
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  if (Number.isNaN(minutes)) return '—';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/** An instant in the viewer's own zone ("May 8, 2026, 2:30 PM"); '' for a missing or unreadable one. */
export function localTime(iso: string | null | undefined): string {
  const at = iso ? new Date(iso) : null;
  return at && !Number.isNaN(at.getTime()) ? at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '';
}

/** A react-admin list's address with a filter (and a sort) already set: what the overview's links open. */
export function listLink(resource: string, filter: Record<string, unknown>, sort?: { field: string; order: 'ASC' | 'DESC' }): string {
  const query = new URLSearchParams({ filter: JSON.stringify(filter) });
  if (sort) {
    query.set('sort', sort.field);
    query.set('order', sort.order);
  }
  return `/${resource}?${query.toString()}`;
}

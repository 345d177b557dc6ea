/**
 * What the first page needs, asked for before React renders (main.tsx). Left to react-admin, a cold
 * load of `/#/users` went shell JS -> `GET /api/auth/me` -> the list view's chunks -> `GET /api/users`,
 * each waiting for the one before (docs/performance.md, "The dashboard"). Here the three start
 * together as soon as the shell runs: who is signed in, the route's view, and (for a list opened
 * with its defaults) its first page of records. React-admin then finds each one on its way: the
 * session check is shared (authProvider), the view's module is the same import, and the list's
 * getList takes the prefetched answer (dataProvider). Nothing here decides what is shown.
 */
import appointments from './appointments';
import audit from './audit';
import { Overview } from './dashboard';
import labAccounts from './lab-accounts';
import { store } from './layout/Admin';
import markers from './markers';
import orders from './orders';
import parserJobs from './parser-jobs';
import { startSessionCheck } from './providers/authProvider';
import { prefetchList } from './providers/dataProvider';
import staff from './staff';
import users from './users';
import { usersListDefaults } from './users/listDefaults';
import webhookEndpoints from './webhook-endpoints';

type Preloadable = { preload?: () => Promise<unknown> };

/** Each resource's list view, by the path react-admin gives it (`#/<name>`). */
const LISTS: Record<string, Preloadable> = {
  users: users.list,
  orders: orders.list,
  appointments: appointments.list,
  'lab-accounts': labAccounts.list,
  markers: markers.list,
  'parser-jobs': parserJobs.list,
  'webhook-endpoints': webhookEndpoints.list,
  'audit-events': audit.list,
  staff: staff.list,
};

/** The lists whose first request can be told before rendering: their defaults, when nothing else was chosen. */
const LIST_DEFAULTS: Record<string, { sort: { field: string; order: 'ASC' | 'DESC' }; perPage: number }> = {
  users: usersListDefaults,
};

export function startFirstPage(hash: string): void {
  startSessionCheck();
  // `#/users`, `#/users?filter=...`, `#/users/123/show`: the resource and whether it is its list.
  const match = /^#?\/?([^/?]*)(\/[^?]*)?(\?.*)?$/.exec(hash);
  const resource = match?.[1] ?? '';
  const isList = match !== null && !match[2] && !match[3];
  const defaults = isList ? LIST_DEFAULTS[resource] : undefined;
  // A sort, filter or page size chosen earlier is kept in the store: then the list asks for that itself.
  // Asked before the view's files: Chromium sends at most six requests at once to a host over HTTP/1.1,
  // in the order they were made, and the records take longer to prepare than a file does to send.
  if (defaults && store.getItem(`${resource}.listParams`) === undefined) {
    prefetchList(resource, { pagination: { page: 1, perPage: defaults.perPage }, sort: defaults.sort, filter: {} });
  }
  const view: Preloadable | undefined = resource === '' ? Overview : isList ? LISTS[resource] : undefined;
  view?.preload?.().catch(() => {
    // React.lazy imports it again and shows the error page if it still fails
  });
}

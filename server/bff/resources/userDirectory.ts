import type { User } from '../../contract';
import { USERS_MAX_LIMIT } from '../../contract';
import { BffError } from '../errors';
import { fetchRange, type ListParams, type ListRange, type RangeResult } from '../pagination';
import type { ServiceClient } from '../upstream/client';

export type UserRecord = User & { id: string };
const toRecord = (u: User): UserRecord => ({ id: u.user_id, ...u });

/** How long a full-directory snapshot (used for search) may be reused. */
const SNAPSHOT_TTL_MS = 15_000;
/** Newest-first pages read again because the directory's size moved, at most (then answered as read). */
const MAX_SIZE_CHECKS = 3;
/** Search walks the whole directory; past this size it would be too slow to be useful. */
const MAX_SEARCHABLE_USERS = 20_000;

/**
 * The users list over the service's offset pagination. The service has no search, so `q` is
 * answered from a short-lived snapshot of the whole directory, read 500 at a time; an exact
 * client_user_id also matches through the resolve endpoint, so a fresh user is found at once.
 */
export class UserDirectory {
  private snapshot: { at: number; users: User[] } | null = null;
  /** The directory's size as the service last reported it: a guess for newest-first offsets, always checked. */
  private knownTotal: number | null = null;

  constructor(private readonly client: ServiceClient) {}

  async list(params: ListParams): Promise<RangeResult<UserRecord>> {
    const { field, order } = params.sort;
    if (field !== 'id' && field !== 'created_on') {
      throw new BffError(400, `Users can be sorted by creation date only (not by ${field})`);
    }
    const q = typeof params.filter.q === 'string' ? params.filter.q.trim() : '';
    if (q) return this.search(q, params.range, order);
    if (order === 'ASC') return this.ascending(params.range);
    return this.descending(params.range);
  }

  async getMany(ids: string[]): Promise<UserRecord[]> {
    const unique = [...new Set(ids)].slice(0, 200);
    const found: UserRecord[] = [];
    // A few at a time: a react-admin reference field may ask for a whole page of ids.
    for (let i = 0; i < unique.length; i += 8) {
      const batch = await Promise.all(
        unique.slice(i, i + 8).map((id) =>
          this.client.getUser(id).then(toRecord, (err: unknown) => {
            // Unknown, another team's, or not even a well-formed id: all simply "not found".
            const status = (err as { status?: number }).status;
            if (status === 404 || status === 422) return null;
            throw err;
          }),
        ),
      );
      for (const u of batch) if (u) found.push(u);
    }
    return found;
  }

  private ascending(range: ListRange) {
    return fetchRange(
      {
        kind: 'offset',
        maxLimit: USERS_MAX_LIMIT,
        fetch: async (offset, limit) => {
          const page = await this.client.listUsers(offset, limit);
          return { items: page.users.map(toRecord), total: page.total };
        },
      },
      range,
    );
  }

  /**
   * Newest first: the same offsets counted from the end, which needs the directory's size. The
   * size last seen is assumed and checked against the total the page itself reports: the same
   * answer as asking for the size first, in one call instead of two while the directory keeps its
   * size (a changed size costs the call again, with the offsets the new size gives).
   */
  private async descending(range: ListRange): Promise<RangeResult<UserRecord>> {
    const [first, last] = range;
    let total = this.knownTotal;
    let calls = 0;
    for (let attempt = 1; ; attempt++) {
      if (total === null || first >= total) {
        // Unknown, or the range lies past it: ask (an empty page is answered on the service's word).
        total = (await this.client.listUsers(0, 1)).total;
        calls++;
        this.knownTotal = total;
        if (first >= total) return { items: [], total, hasNextPage: false, upstreamCalls: calls };
      }
      const asc = await this.ascending([Math.max(0, total - 1 - last), total - 1 - first]);
      calls += asc.upstreamCalls;
      this.knownTotal = asc.total ?? null;
      // A directory that changes size under every call is answered as asking first would: the
      // page read at the offsets of the size it was asked with.
      if (asc.total === total || attempt === MAX_SIZE_CHECKS) {
        return { items: asc.items.reverse(), total, hasNextPage: last + 1 < total, upstreamCalls: calls };
      }
      total = asc.total ?? null;
    }
  }

  private async search(q: string, range: ListRange, order: 'ASC' | 'DESC'): Promise<RangeResult<UserRecord>> {
    const needle = q.toLowerCase();
    const all = await this.allUsers();
    let matches = all.filter((u) => u.client_user_id.toLowerCase().includes(needle));
    if (!matches.some((u) => u.client_user_id === q)) {
      const exact = await this.client.resolveUser(q).catch(() => null);
      if (exact) matches = [...matches, exact];
    }
    if (order === 'DESC') matches = [...matches].reverse();
    const [first, last] = range;
    const items = matches.slice(first, last + 1).map(toRecord);
    return { items, total: matches.length, hasNextPage: last + 1 < matches.length, upstreamCalls: 0 };
  }

  private async allUsers(): Promise<User[]> {
    if (this.snapshot && Date.now() - this.snapshot.at < SNAPSHOT_TTL_MS) return this.snapshot.users;
    const users: User[] = [];
    for (let offset = 0; ; offset += USERS_MAX_LIMIT) {
      const page = await this.client.listUsers(offset, USERS_MAX_LIMIT);
      users.push(...page.users);
      if (page.users.length < USERS_MAX_LIMIT || users.length >= page.total) break;
      if (users.length >= MAX_SEARCHABLE_USERS) {
        throw new BffError(400, `Search covers up to ${MAX_SEARCHABLE_USERS} users; open a user by their exact client user id instead`);
      }
    }
    this.snapshot = { at: Date.now(), users };
    return users;
  }
}

import type { User } from '../../server/contract';

/** A users record as the BFF serves it: the service's User plus react-admin's `id` (= user_id). */
export type UserRecord = User & { id: string };

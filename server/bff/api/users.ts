import { z } from 'zod';
import { CalendarDate, User } from '../../contract';
import { filter, listQuery } from './list';

/** `users`: the service's User plus react-admin's `id` (= `user_id`). */
export const UserRecord = User.extend({ id: z.string() }).meta({ id: 'UserRecord' });
export type UserRecord = z.infer<typeof UserRecord>;

export const UsersList = listQuery({
  filter: { q: filter.string(200).describe('client_user_id contains (case-insensitive), or an exact user id') },
  sort: { id: ['ASC', 'DESC'], created_on: ['ASC', 'DESC'] },
  defaultSort: { field: 'id', order: 'ASC' },
});

export const MindfulnessQuery = z.object({ start_date: CalendarDate, end_date: CalendarDate });
export type DateRange = z.infer<typeof MindfulnessQuery>;

/** `GET /api/users/:id/mindfulness-minutes`: one zero-filled entry per calendar day. */
export const MindfulnessMinutes = z
  .object({
    user_id: z.string(),
    start_date: z.string(),
    end_date: z.string(),
    time_zone: z.string().nullable().describe('IANA zone the days are cut in; null if the BFF could not tell'),
    providers: z.array(z.object({ slug: z.string(), name: z.string() })),
    days: z.array(z.object({ date: z.string(), total: z.number(), by_provider: z.record(z.string(), z.number()) })),
    sessions: z.number().int(),
    upstream_pages: z.number().int(),
  })
  .meta({ id: 'MindfulnessMinutes' });
export type MindfulnessMinutes = z.infer<typeof MindfulnessMinutes>;

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

/**
 * The fields staff may set on a patient. Only shapes are checked here: what a valid client id,
 * zone or date is (no e-mail or phone number as client id, say) is the service's rule, and its 422
 * comes back keyed by these same names, so it lands on the form's field.
 */
const userFields = {
  fallback_time_zone: z.string().max(64).nullable().optional().describe('IANA zone; null clears it'),
  fallback_birth_date: z.string().max(10).nullable().optional().describe('YYYY-MM-DD; null clears it'),
  ingestion_start: z.string().max(10).nullable().optional().describe('YYYY-MM-DD; null: no lower bound'),
  ingestion_end: z.string().max(10).nullable().optional().describe('YYYY-MM-DD; null: no upper bound'),
};

/** `POST /api/users`: a new patient. */
export const CreateUser = z.object({ client_user_id: z.string().max(255), ...userFields }).meta({ id: 'CreateUser' });
export type CreateUser = z.infer<typeof CreateUser>;

/** `PUT /api/users/:id`: react-admin sends the record back; only these fields, when they differ, go upstream. */
export const UpdateUser = z.object({ client_user_id: z.string().max(255).optional(), ...userFields }).meta({ id: 'UpdateUser' });
export type UpdateUser = z.infer<typeof UpdateUser>;

import { z } from 'zod';
import { CalendarDate, DateTime, hasNoNul, IanaTimeZone, NO_NUL_MESSAGE, Uuid } from './common';

/** Providers always carry a non-null logo: strict clients throw on `logo: null`. */
export const ClientFacingProvider = z.object({
  name: z.string(),
  slug: z.string(),
  logo: z.string(),
});

export const ConnectedSource = z.object({
  provider: ClientFacingProvider,
  created_on: DateTime,
  source: ClientFacingProvider.describe('Deprecated duplicate of provider'),
});

export const FallbackTimeZone = z.object({
  id: z.string().describe('IANA tz database identifier'),
  source_slug: z.string(),
  updated_at: DateTime,
});

export const FallbackBirthDate = z.object({
  value: z.string().describe('YYYY-mm-dd'),
  source_slug: z.string(),
  updated_at: DateTime,
});

export const User = z.object({
  user_id: Uuid,
  team_id: Uuid,
  client_user_id: z.string(),
  created_on: DateTime,
  connected_sources: z.array(ConnectedSource),
  fallback_time_zone: FallbackTimeZone.nullable(),
  fallback_birth_date: FallbackBirthDate.nullable(),
  ingestion_start: z.string().nullable().optional(),
  ingestion_end: z.string().nullable().optional(),
});
export type User = z.infer<typeof User>;

export const USERS_DEFAULT_LIMIT = 100;
export const USERS_MAX_LIMIT = 500;

export const ListUsersQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0).describe('Users to skip, in creation order'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(USERS_MAX_LIMIT)
    .default(USERS_DEFAULT_LIMIT)
    .describe(`Page size: default ${USERS_DEFAULT_LIMIT}, maximum ${USERS_MAX_LIMIT}`),
});

export const PaginatedUsers = z.object({
  users: z.array(User),
  total: z.number().int().describe("The team's total number of users, whatever the page"),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type PaginatedUsers = z.infer<typeof PaginatedUsers>;

/** client_user_id is the team's own id for the person; it must not be an e-mail or phone number. */
export function looksLikePii(value: string): 'email' | 'phone' | null {
  // Same matches as /[^\s@]+@[^\s@]+\.[^\s@]+/, without its quadratic backtracking on long input.
  if (/[^\s@]@[^\s@]+\.[^\s@]/.test(value)) return 'email';
  const compact = value.replace(/[\s().-]/g, '');
  if (!/^(\+|00)?\d{7,15}$/.test(compact)) return null;
  // An international prefix ("+33 6 12 34 56 78"), or digits written the way phone numbers are
  // (separators: "415.555.0134", "(415) 555-0134"), or a bare North American number (10 digits,
  // or 11 starting with 1). Other bare digit strings are common record numbers and are allowed.
  if (/^(\+|00)/.test(compact)) return 'phone';
  if (compact !== value && /\d{3}/.test(value)) return 'phone';
  if (/^(1?[2-9]\d{2}[2-9]\d{6})$/.test(compact)) return 'phone';
  return null;
}

export const ClientUserId = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255)
  .refine(hasNoNul, NO_NUL_MESSAGE)
  .superRefine((v, ctx) => {
    const kind = looksLikePii(v);
    if (kind) {
      ctx.addIssue({
        code: 'custom',
        message: `must not contain personally identifiable information (it looks like ${
          kind === 'email' ? 'an e-mail address' : 'a phone number'
        }); use an opaque id of your own`,
        params: { type: 'value_error.pii' },
      });
    }
  });

const userWritableFields = {
  fallback_time_zone: IanaTimeZone.nullable().optional(),
  fallback_birth_date: CalendarDate.nullable().optional(),
  ingestion_start: CalendarDate.nullable().optional(),
  ingestion_end: CalendarDate.nullable().optional(),
};

function boundsInOrder(v: { ingestion_start?: string | null; ingestion_end?: string | null }) {
  return !(v.ingestion_start && v.ingestion_end && v.ingestion_start > v.ingestion_end);
}
const boundsMessage = { message: 'ingestion_start must not be after ingestion_end', path: ['ingestion_end'] };

export const CreateUserBody = z
  .object({ client_user_id: ClientUserId, ...userWritableFields })
  .refine(boundsInOrder, boundsMessage);
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const PatchUserBody = z
  .object({ client_user_id: ClientUserId.optional(), ...userWritableFields })
  .refine(boundsInOrder, boundsMessage);
export type PatchUserBody = z.infer<typeof PatchUserBody>;

export const CreateUserResponse = z.object({ user_id: Uuid, client_user_id: z.string() });
export const DeleteUserResponse = z.object({ success: z.boolean() });
export const UserIdParams = z.object({ user_id: Uuid });
export const ClientUserIdParams = z.object({ client_user_id: z.string().min(1).refine(hasNoNul, NO_NUL_MESSAGE) });

import { z } from 'zod';

export const LoginBody = z.object({
  email: z.string().trim().min(1, 'Enter your email').max(320),
  password: z.string().min(1, 'Enter your password').max(1024),
  /** The current code of the member's authenticator app, once two-factor is set up. */
  code: z.string().trim().max(20).optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** Roles arrive as plain strings: a role from a newer BFF gets the least privilege, not an error. */
export const StaffUser = z
  .object({ id: z.string(), email: z.string(), name: z.string().nullable(), role: z.string(), mfa_enabled: z.boolean().optional() })
  .meta({ id: 'StaffUser' });
export type StaffUser = z.infer<typeof StaffUser>;

/** `POST /api/auth/login` and `GET /api/auth/me` both answer this. */
export const SessionAnswer = z
  .object({
    user: StaffUser,
    csrfToken: z.string(),
    mfa_enrolment_required: z
      .boolean()
      .optional()
      .describe('The role requires two-factor and this member has not set it up: nothing but enrolment is allowed until they do'),
  })
  .meta({ id: 'SessionAnswer' });
export type SessionAnswer = z.infer<typeof SessionAnswer>;

export { CSRF_HEADER, SESSION_PROBE_HEADER } from './constants';

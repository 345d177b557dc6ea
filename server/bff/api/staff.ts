/**
 * `staff`: the people who use Labdesk, managed by admins; `role-policies`: per-role sign-in rules.
 * Records never carry a password hash or a two-factor secret.
 */
import { z } from 'zod';
import { filter, listQuery } from './list';
import { ROLES } from './roles';

/** NIST SP 800-63B: length over composition rules; common passwords are refused on the server. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export const StaffRecord = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.string().describe(`${ROLES.join(', ')}; a newer BFF may add roles`),
    disabled: z.boolean(),
    created_at: z.string(),
    last_sign_in_at: z.string().nullable(),
    mfa_enabled: z.boolean().describe('Two-factor sign-in is set up'),
  })
  .meta({ id: 'StaffRecord' });
export type StaffRecord = z.infer<typeof StaffRecord>;

export const StaffList = listQuery({
  filter: { q: filter.string(200).describe('Part of the e-mail or name'), role: filter.stringList(10, 40), disabled: filter.boolean() },
  sort: { id: ['ASC', 'DESC'], email: ['ASC', 'DESC'], name: ['ASC', 'DESC'], role: ['ASC', 'DESC'], created_at: ['ASC', 'DESC'], last_sign_in_at: ['ASC', 'DESC'] },
  defaultSort: { field: 'email', order: 'ASC' },
});

const Role = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` });
const Password = z
  .string({ error: 'Enter a password' })
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const CreateStaff = z.object({
  email: z.string({ error: 'Enter an e-mail address' }).trim().max(320).pipe(z.email({ error: 'must be an e-mail address' })),
  name: z.string().trim().min(1, 'Enter a name').max(200),
  role: Role,
  password: Password,
});
export type CreateStaff = z.input<typeof CreateStaff>;

/** react-admin sends the whole record back: only these fields are read; the rest is ignored. */
export const UpdateStaff = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(200).optional(),
  role: Role.optional(),
  disabled: z.boolean({ error: 'must be true or false' }).optional(),
  password: Password.optional(),
});
export type UpdateStaff = z.input<typeof UpdateStaff>;

export const RolePolicyRecord = z
  .object({
    id: z.string().describe('The role'),
    role: z.string(),
    mfa_required: z.boolean().describe('Members of this role must sign in with a two-factor code'),
  })
  .meta({ id: 'RolePolicyRecord' });
export type RolePolicyRecord = z.infer<typeof RolePolicyRecord>;
export const RolePolicyParams = z.object({ id: Role });
export const UpdateRolePolicy = z.object({ mfa_required: z.boolean({ error: 'must be true or false' }) });

/** `POST /api/auth/mfa`: a new secret to scan; it counts once a code from it is confirmed. */
export const MfaEnrolment = z
  .object({ secret: z.string().describe('Base32, for typing in by hand'), otpauth_url: z.string().describe('otpauth://totp/… for a QR code') })
  .meta({ id: 'MfaEnrolment' });
export type MfaEnrolment = z.infer<typeof MfaEnrolment>;
export const MfaCode = z
  .string({ error: 'Enter the 6-digit code' })
  .trim()
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'must be the 6 digits your authenticator app shows'));
export const MfaConfirmBody = z.object({ code: MfaCode });

/**
 * The BFF's one error shape, as react-admin reads it: `message` for the notification, `errors`
 * for form fields (`{field: message}`; react-admin shows them under the inputs), and `code` where
 * the dashboard must act differently (refresh the slots, say).
 */
import { z } from 'zod';
import { ERROR_CODES } from './constants';

export { ERROR_CODES, type ErrorCode } from './constants';

export const ErrorBody = z
  .object({
    message: z.string().describe('A sentence for the person using the dashboard'),
    code: z.string().optional().describe(`One of ${Object.keys(ERROR_CODES).join(', ')}; more may come`),
    errors: z.record(z.string(), z.string()).optional().describe('Field → message, for form fields'),
    mfa_required: z.literal(true).optional().describe('Sign-in: send `code` from the authenticator app'),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

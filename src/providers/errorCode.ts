import { HttpError } from 'react-admin';
import { ERROR_CODES, type ErrorCode } from '../../server/bff/api/constants';

/**
 * The BFF's `code` of a failed call, when it is one the dashboard acts on (ERROR_CODES of
 * server/bff/api/errors.ts). A code from a newer BFF is none of them: the caller shows the failure
 * as a plain error.
 */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  if (!(error instanceof HttpError)) return undefined;
  const code: unknown = (error.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : undefined;
}

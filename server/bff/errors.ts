/**
 * The BFF's one error shape: `{message, errors?: {field: message}, code?}`. react-admin shows
 * `errors` on form fields; `code` names a failure the dashboard must act on differently (e.g.
 * `slot_expired`: refresh the slots).
 */
export class BffError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly code?: string,
  ) {
    super(message);
  }

  /** Sent as `Retry-After` (429s: when to try again). */
  retryAfterSeconds?: number;

  withRetryAfter(seconds: number): this {
    this.retryAfterSeconds = seconds;
    return this;
  }
}

export const unauthenticated = () => new BffError(401, 'Sign in to continue');
export const forbidden = (what = 'do this') => new BffError(403, `Your role does not allow you to ${what}`);
export const notFound = (what: string) => new BffError(404, `${what} not found`);

import { ValidationIssue } from '../../contract';
import { BffError } from '../errors';

/** A non-2xx answer (or no answer) from the service. */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly operation: string,
    /** Why there was no answer (status 0 or 504): the connection error's code, e.g. `ECONNREFUSED`, `ECONNRESET`, `TimeoutError`. */
    readonly reason?: string,
  ) {
    super(`${operation}: upstream answered ${status}${reason ? ` (${reason})` : ''}`);
  }
}

/** A failed answer's status and body: the part of the transport's Answer read here. */
export interface FailedAnswer {
  status: number;
  text(maxBytes: number): Promise<string>;
}

/** Of a failed answer, this much is read at most (only its start is kept). */
const ERROR_BODY_MAX_BYTES = 1024 * 1024;

/**
 * The one reading of a failed answer: `{detail}` when the service says what went wrong (a string,
 * or the 422 list of `{loc, msg}`), else the start of whatever it answered.
 */
export async function upstreamError(res: FailedAnswer, operation: string): Promise<UpstreamError> {
  const text = await res.text(ERROR_BODY_MAX_BYTES).catch(() => '');
  let detail: unknown = text.slice(0, 200);
  try {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === 'object' && 'detail' in json) detail = (json as { detail: unknown }).detail;
  } catch {
    // Not JSON (a proxy's error page): its first characters are all there is to say.
  }
  return new UpstreamError(res.status, detail, operation);
}

const PARTS = new Set(['body', 'query', 'path', 'header']);

/** `{loc: ['body','patient_address','zip'], msg}` → `{'patient_address.zip': msg}` for react-admin's form fields. */
export function fieldErrors(detail: unknown): Record<string, string> {
  const parsed = ValidationIssue.array().safeParse(detail);
  if (!parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.data) {
    const path = issue.loc.filter((p, i) => !(i === 0 && typeof p === 'string' && PARTS.has(p)));
    const field = path.length ? path.join('.') : String(issue.loc[0] ?? 'root');
    errors[field] ??= issue.msg;
  }
  return errors;
}

function detailMessage(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (detail && typeof detail === 'object' && 'error_message' in detail && typeof detail.error_message === 'string') {
    return detail.error_message;
  }
  return undefined;
}

/**
 * What the dashboard sees for an upstream failure. The service's own credentials problems are
 * the operator's to fix, so they become 502, never a 401 that would sign the staff member out.
 */
export function toBffError(err: UpstreamError): BffError {
  const msg = detailMessage(err.detail);
  switch (true) {
    case err.status === 422: {
      const errors = fieldErrors(err.detail);
      const first = Object.entries(errors)[0];
      return new BffError(422, first ? `${first[0]}: ${first[1]}` : (msg ?? 'The service refused the request'), errors);
    }
    case err.status === 404:
      return new BffError(404, msg ?? 'Not found');
    case err.status === 401 || err.status === 403:
      return new BffError(502, 'The service rejected the dashboard’s API key; an administrator must check SERVICE_API_KEY');
    case err.status === 0:
      return new BffError(502, 'The service cannot be reached; try again in a moment');
    case err.status === 504:
      return new BffError(504, 'The service took too long to answer; try again or narrow the request');
    case err.status >= 400 && err.status < 500:
      return new BffError(err.status, msg ?? `The service refused the request (${err.status})`);
    default:
      return new BffError(502, 'The service failed to answer; try again in a moment');
  }
}

/**
 * The one place the dashboard's data calls touch the network.
 *
 * - sends the session cookie (`credentials: 'same-origin'`), never a token of its own;
 * - echoes the CSRF token on every mutation, which the BFF refuses (403) without;
 * - turns error bodies into react-admin's `HttpError` with `body.errors` keyed by form field,
 *   which is what react-admin needs to show server-side validation under each input.
 */
import { fetchUtils, HttpError } from 'react-admin';
import { CSRF_HEADER } from '../../server/bff/api/constants';
import { getCsrfToken } from './session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  // fetchJson parses whatever came back; callers cast to what the BFF documents.
  json: unknown;
}

export async function httpClient(url: string, options: fetchUtils.Options = {}): Promise<HttpResponse> {
  const method = (options.method ?? 'GET').toUpperCase();
  const headers = new Headers(options.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const token = getCsrfToken();
  if (!SAFE_METHODS.has(method) && token) headers.set(CSRF_HEADER, token);

  try {
    return await fetchUtils.fetchJson(url, { ...options, headers, credentials: 'same-origin' });
  } catch (error) {
    throw error instanceof HttpError ? toLabdeskError(error) : error;
  }
}

type FieldErrors = Record<string, string>;

/** `{message, errors}` from the BFF; `{detail}` if a service answer ever leaks through unmapped. */
export function toLabdeskError(error: HttpError): HttpError {
  const body: unknown = error.body;
  const status = error.status as number;
  let message = error.message || `Request failed (HTTP ${status})`;
  let errors: FieldErrors | undefined;
  // `code` tells apart answers that need different handling under one status (slot_expired,
  // slot_taken, has_appointment, not_confirmed on the appointment calls).
  let code: string | undefined;

  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; errors?: unknown; detail?: unknown; code?: unknown };
    if (typeof b.message === 'string' && b.message) message = b.message;
    if (b.errors && typeof b.errors === 'object') errors = stringValues(b.errors as Record<string, unknown>);
    if (typeof b.detail === 'string') message = b.detail;
    if (Array.isArray(b.detail)) errors = { ...fieldErrorsFromDetail(b.detail), ...errors };
    if (typeof b.code === 'string' && b.code) code = b.code;
  }
  return new HttpError(message, status, { message, ...(errors && { errors }), ...(code && { code }) });
}

function stringValues(record: Record<string, unknown>): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, value] of Object.entries(record)) {
    if (typeof value === 'string') out[field] = value;
  }
  return out;
}

/** The service's 422 shape: `[{loc: ['body', 'field'], msg}]` → `{field: msg}`. */
function fieldErrorsFromDetail(detail: unknown[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of detail) {
    if (!issue || typeof issue !== 'object') continue;
    const { loc, msg } = issue as { loc?: unknown; msg?: unknown };
    const field = Array.isArray(loc) ? loc[loc.length - 1] : undefined;
    if ((typeof field === 'string' || typeof field === 'number') && typeof msg === 'string') {
      out[String(field)] = msg;
    }
  }
  return out;
}

/**
 * The endpoint URL's syntax, checked before sending: the checks of the contract's
 * webhookUrlProblem (server/contract/webhooks.ts), said as the form says things ("Use an http or
 * https URL" rather than the API's "must be an http or https URL"). Whether the host is a private
 * address only the service can tell; its 422 lands on the same field.
 */
import { URL_MAX } from './types';

export function urlProblem(raw: unknown): string | undefined {
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!value) return 'Enter the URL that receives the events';
  if (value.length > URL_MAX) return `At most ${URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter an absolute http or https URL, like https://example.com/webhooks';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Use an http or https URL';
  if (url.username || url.password) return 'Leave credentials (user:password@) out of the URL';
  if (!url.hostname) return 'The URL must name a host';
  return undefined;
}

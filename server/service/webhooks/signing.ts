import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` then the base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';
export const SECRET_BYTES = 32;

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key: the base64-decoded bytes after the prefix. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * The `webhook-signature` header value of the Standard Webhooks spec:
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, `timestamp` in whole seconds.
 */
export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one delivery attempt (besides content-type). */
export function webhookHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload(secret, id, timestamp, body),
  };
}

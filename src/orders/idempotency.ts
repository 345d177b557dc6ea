/**
 * The `X-Idempotency-Key` of an order submission: one per form and body. A double-clicked or
 * retried submit of the same form with the same values sends the same key, so the service answers
 * it with the first order instead of making a second; a corrected form (other values) gets a new
 * key, since the service refuses a key reused with another body.
 */

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  // getRandomValues works in insecure contexts too (randomUUID needs https or localhost).
  globalThis.crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh id for one form on screen. */
export const newFormSessionId = () => randomHex(16);

/** JSON with object keys sorted, so the same values always give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** cyrb53-style 2×32-bit hash: not cryptographic; it only tells one body from another within a form. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

export const idempotencyKey = (formSessionId: string, body: unknown) => `labdesk-${formSessionId}-${hash(canonicalJson(body))}`;

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Invalid } from './errors';

/**
 * Opaque, signed page cursors. The payload names the owner (user or team) and a digest of the
 * query it belongs to, so a cursor replayed against another user or another query is refused
 * (422) rather than silently returning the wrong page.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(payload: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(cursor: string, loc: (string | number)[]): Record<string, unknown> {
    const [body, sig, extra] = cursor.split('.');
    if (!body || !sig || extra !== undefined) throw new Invalid(loc, 'cursor is malformed', 'value_error.cursor');
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new Invalid(loc, 'cursor is invalid or was tampered with', 'value_error.cursor');
    }
    try {
      const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, unknown>;
    } catch {
      /* fall through */
    }
    throw new Invalid(loc, 'cursor is malformed', 'value_error.cursor');
  }

  private sign(body: string) {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

/** Stable digest of the query parameters a cursor belongs to. */
export function queryDigest(parts: Record<string, unknown>): string {
  const keys = Object.keys(parts).sort();
  return createHash('sha256')
    .update(JSON.stringify(keys.map((k) => [k, parts[k] ?? null])))
    .digest('base64url')
    .slice(0, 22);
}

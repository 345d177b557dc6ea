import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { Invalid } from '../errors';

/**
 * Booking keys: `<base64url(JSON payload)>.<base64url(HMAC-SHA256)>`, signed with a secret kept in
 * the store (settings `booking_key_signing_key`). The payload names the team, the provider, the
 * slot (start/end, price, priority), a digest of the address it was offered for, when it expires,
 * and a random nonce (keys of one slot differ; it carries no state). A key names a slot, it is not
 * used up: nothing is stored about it, and any order of the team at its address may book (or
 * reschedule into) its slot until it expires, while the slot has a place (`takePlaceOfKey`).
 */
export const BookingKeyPayload = z.object({
  v: z.literal(1),
  t: z.string(),
  p: z.string(),
  s: z.string(),
  e: z.string(),
  a: z.string(),
  x: z.string(),
  pr: z.number(),
  pp: z.boolean(),
  n: z.string(),
});
export type BookingKeyPayload = z.infer<typeof BookingKeyPayload>;

export const BOOKING_KEY_SECRET = 'booking_key_signing_key';
/** How long a slot offer stays bookable. */
export const BOOKING_KEY_TTL_MS = 15 * 60_000;

const LOC = ['body', 'booking_key'];

/**
 * Nine random bytes per key, drawn from a pool filled 9 KiB at a time: an availability answer signs
 * hundreds of keys, and one system call per key was a tenth of its cost.
 */
const NONCE_BYTES = 9;
let pool = Buffer.alloc(0);
let used = 0;
function nonce(): string {
  if (used + NONCE_BYTES > pool.length) {
    pool = randomBytes(NONCE_BYTES * 1024);
    used = 0;
  }
  used += NONCE_BYTES;
  return pool.subarray(used - NONCE_BYTES, used).toString('base64url');
}

export class BookingKeyCodec {
  constructor(private readonly secret: string) {}

  encode(payload: Omit<BookingKeyPayload, 'v' | 'n'>): string {
    const full: BookingKeyPayload = { v: 1, ...payload, n: nonce() };
    const body = Buffer.from(JSON.stringify(full)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The key's payload; 422 at body.booking_key when it is malformed, tampered with or another team's. */
  decode(key: string, teamId: string): BookingKeyPayload {
    const [body, sig, extra] = key.split('.');
    if (!body || !sig || extra !== undefined) throw new Invalid(LOC, 'booking_key is malformed', 'value_error.booking_key');
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new Invalid(LOC, 'booking_key is invalid or was tampered with', 'value_error.booking_key');
    }
    let parsed: BookingKeyPayload | undefined;
    try {
      const r = BookingKeyPayload.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      if (r.success) parsed = r.data;
    } catch {
      /* below */
    }
    if (!parsed) throw new Invalid(LOC, 'booking_key is malformed', 'value_error.booking_key');
    // Another team's key is answered like an invalid one.
    if (parsed.t !== teamId) throw new Invalid(LOC, 'booking_key is invalid or was tampered with', 'value_error.booking_key');
    return parsed;
  }

  private sign(body: string) {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

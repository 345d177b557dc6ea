import { WEBHOOK_MAX_ATTEMPTS } from '../../contract';

/**
 * Waits after attempt 1, 2, … of a round: 5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h, so the
 * WEBHOOK_MAX_ATTEMPTS (8) attempts span about a day (23 h 35 min before jitter).
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000] as const;
export const JITTER = 0.2;
/** A Retry-After further out than this is cut to it. */
export const RETRY_AFTER_MAX_MS = 24 * 3_600_000;

if (RETRY_DELAYS_MS.length !== WEBHOOK_MAX_ATTEMPTS - 1) throw new Error('one retry delay per attempt but the last');

/** The wait after attempt `attempt` (1-based) failed, with ±20 % jitter; null when it was the last. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. Bounded to a day. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const v = value.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(0, ms), RETRY_AFTER_MAX_MS);
}

/**
 * When to try again after a failed attempt: our own schedule, but never before the receiver's
 * Retry-After (so a receiver that asks for longer gets it, one that asks for less cannot make us
 * spend the day's attempts in seconds). Null: the round is over.
 */
export function nextAttemptAt(attempt: number, now: Date, retryAfter: string | null, random: () => number = Math.random): Date | null {
  const delay = retryDelayMs(attempt, random);
  if (delay === null) return null;
  const asked = parseRetryAfter(retryAfter, now) ?? 0;
  return new Date(now.getTime() + Math.max(delay, asked));
}

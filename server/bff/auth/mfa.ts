/**
 * Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, what every
 * authenticator app reads), through `otpauth`. A code is accepted one step either side of now
 * (clock drift) and only once: the step it matched is stored, and a code of that step or an
 * earlier one is refused, so a code seen over a shoulder cannot be replayed.
 */
import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Labdesk';
const PERIOD = 30;

const totpOf = (secret: string, email = '') =>
  new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** A new 160-bit secret (RFC 4226's recommended length) and the otpauth:// URL a QR code carries. */
export function newMfaSecret(email: string): { secret: string; otpauth_url: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauth_url: totpOf(secret, email).toString() };
}

/** The time step a code matched (to store as the last one used), or null when it is wrong or already used. */
export function acceptedStep(secret: string, code: string, lastStep: number | null, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** The current code of a secret (tests and the end-to-end flow act as the authenticator app). */
export const currentCode = (secret: string, now = Date.now()) => totpOf(secret).generate({ timestamp: now });

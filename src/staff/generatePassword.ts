/**
 * A password for a new member or a reset, made in the browser and shown once: 20 characters from
 * 32 unambiguous letters and digits (100 bits), grouped in fours so it can be read out or typed.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789AB';

export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  const chars = [...bytes].map((b) => ALPHABET[b % 32]);
  return [0, 4, 8, 12, 16].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

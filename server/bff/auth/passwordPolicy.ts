/**
 * Which passwords are refused beyond the length rule (server/bff/api/staff.ts): the common ones,
 * per NIST SP 800-63B §5.1.1.2. The list is zxcvbn's 49k most common passwords, offline; a
 * password counts as common when it is one of them, or one of them padded with digits and
 * symbols ("password123456!"), or built from the member's own e-mail, name or the product's name.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

const COMMON = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
const CONTEXT_WORDS = ['labdesk', 'password', 'passwort', 'qwerty'];

const fold = (s: string) => s.normalize('NFKC').toLowerCase();
/** The letters between any leading and trailing run of digits and symbols. */
const core = (s: string) => s.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
const oneCharacter = (s: string) => new Set(s).size <= 2;

export function passwordProblem(password: string, context: { email?: string; name?: string } = {}): string | null {
  const folded = fold(password);
  if (COMMON.has(folded) || oneCharacter(folded)) return 'is too common; choose a longer phrase of unrelated words';
  const middle = core(folded);
  if (middle.length >= 3 && COMMON.has(middle)) return 'is a common password with digits or symbols around it; choose a longer phrase of unrelated words';
  const personal = [context.email?.split('@')[0], ...(context.name ?? '').split(/\s+/)]
    .map((w) => fold(w ?? ''))
    .filter((w) => w.length >= 4);
  const words = [...CONTEXT_WORDS, ...personal];
  const compact = folded.replace(/[^\p{L}\p{N}]/gu, '');
  if (words.some((w) => compact.includes(w))) {
    const rest = words.reduce((left, w) => left.split(w).join(''), compact).replace(/[^\p{L}]/gu, '');
    if (rest.length < 4 || COMMON.has(rest)) {
      return 'is built from your name, e-mail or the product’s name; choose a longer phrase of unrelated words';
    }
  }
  return null;
}

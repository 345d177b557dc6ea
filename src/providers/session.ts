/**
 * The signed-in staff member as the browser knows them.
 *
 * The session itself lives in an HttpOnly cookie the BFF sets, so script never sees it. What we do
 * keep is the CSRF token that every mutation must echo in `x-csrf-token`. It stays in module memory
 * on purpose (not localStorage): a page reload forgets it and the authProvider re-reads it from
 * `GET /api/auth/me`, so no long-lived copy sits where other scripts could read it.
 */
import type { StaffUser } from './types';

let csrfToken: string | null = null;
let currentUser: StaffUser | null = null;
/** The member's role requires two-factor and they have not set it up: only the account page works. */
let mfaEnrolmentRequired = false;

export function isMfaEnrolmentRequired(): boolean {
  return mfaEnrolmentRequired;
}

export function getCsrfToken(): string | null {
  return csrfToken;
}

export function getCurrentUser(): StaffUser | null {
  return currentUser;
}

export function rememberSession(user: StaffUser, token: string, enrolmentRequired = false): void {
  currentUser = user;
  csrfToken = token;
  mfaEnrolmentRequired = enrolmentRequired && !user.mfa_enabled;
}

export function forgetSession(): void {
  currentUser = null;
  csrfToken = null;
  mfaEnrolmentRequired = false;
}

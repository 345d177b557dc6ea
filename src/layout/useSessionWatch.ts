/**
 * Notices at once when the BFF ended this session from elsewhere (an admin disabled the member,
 * changed their role or password): every 15 seconds and whenever the tab comes back into view, it
 * asks `GET /api/auth/me`; a 401 signs out to the sign-in page with "your session has ended".
 * Without it, a disabled member would keep seeing the page they had open until they clicked.
 */
import { useEffect } from 'react';
import { useLogout, useNotify } from 'react-admin';
import { SESSION_PROBE_HEADER } from '../../server/bff/api/constants';
import { SIGN_IN_MESSAGES } from '../providers/authProvider';
import { forgetSession, getCurrentUser } from '../providers/session';

const EVERY_MS = 15_000;

export function useSessionWatch() {
  const logout = useLogout();
  const notify = useNotify();
  useEffect(() => {
    let stopped = false;
    const check = async () => {
      if (stopped || !getCurrentUser() || document.visibilityState === 'hidden') return;
      try {
        // A probe, not activity: it must not keep an unattended tab's session alive past its idle timeout.
        const response = await fetch('/api/auth/me', { credentials: 'same-origin', headers: { Accept: 'application/json', [SESSION_PROBE_HEADER]: '1' } });
        // Read the answer to its end: an unread body keeps the request open in the browser.
        await response.arrayBuffer();
        if (response.status === 401 && !stopped) {
          forgetSession();
          notify(SIGN_IN_MESSAGES.sessionEnded, { type: 'warning' });
          await logout({}, '/login', false);
        }
      } catch {
        // offline for a moment: the next check (or the next request) tells
      }
    };
    const timer = setInterval(() => void check(), EVERY_MS);
    const onVisible = () => void check();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
    };
  }, [logout, notify]);
}

/**
 * For what a page can show a moment later (the menu's badges): true once the page's own first
 * requests have been answered, or after a few seconds at the latest. On a cold load of a list the
 * badges' overview (several calls to the service behind one BFF request) went out beside the list's
 * own records and the view's files, and the BFF and the service, sharing two cores, answered all of
 * them later (docs/performance.md, "The dashboard").
 */
import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** How long nothing must be in flight: a view's lazy files load between the session check and its records. */
const QUIET_MS = 250;
const LATEST_MS = 3_000;

export function useAfterFirstAnswers(): boolean {
  const fetching = useIsFetching();
  const [sawFetching, setSawFetching] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    if (fetching > 0) {
      setSawFetching(true);
      return;
    }
    if (!sawFetching) return;
    const timer = setTimeout(() => setReady(true), QUIET_MS);
    return () => clearTimeout(timer);
  }, [fetching, sawFetching, ready]);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), LATEST_MS);
    return () => clearTimeout(timer);
  }, []);
  return ready;
}

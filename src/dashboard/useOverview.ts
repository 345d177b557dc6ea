/**
 * The overview's one query, polled every 30 s. The overview page and the menu badges read it with
 * the same key, so one request serves both (react-query shares the answer and the interval).
 */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { OVERVIEW_POLL_MS } from '../../server/bff/api/constants';
import { pollMs } from '../components/polling';
import { viewerZone } from '../components/zonedTime';
import type { LabdeskDataProvider } from '../providers/types';

export const overviewQueryKey = (timeZone: string) => ['overview', timeZone] as const;

/** `enabled: false` only waits: the query still shows what another reader of the same key fetched. */
export function useOverview({ enabled = true }: { enabled?: boolean } = {}) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  // "Today" is the viewer's: the browser's zone.
  const timeZone = viewerZone();
  return useQuery({
    queryKey: overviewQueryKey(timeZone),
    queryFn: () => dataProvider.getOverview(timeZone),
    enabled,
    refetchInterval: pollMs(OVERVIEW_POLL_MS),
    // Counts a minute old are still worth showing while the next answer is on its way.
    staleTime: pollMs(OVERVIEW_POLL_MS),
  });
}

/** "42", or "500+" when the BFF stopped walking at its cap. */
export const countText = (c: { count: number; capped: boolean }) => (c.capped ? `${c.count}+` : String(c.count));

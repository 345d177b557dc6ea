/** The oldest job still waiting for review, other than this one: where a reviewer goes next. */
import { useGetList } from 'react-admin';
import { QUEUE_SORT } from '../ParserJobTabs';
import type { ParserJobRecord } from '../types';

export function useNextInQueue(currentId: string, enabled: boolean) {
  const { data, isPending, error } = useGetList<ParserJobRecord>(
    'parser-jobs',
    // Two: the first may be this very job, if the queue has not caught up with the review yet.
    { filter: { queue: true }, sort: QUEUE_SORT, pagination: { page: 1, perPage: 2 } },
    { enabled },
  );
  const next = data?.find((job) => job.id !== currentId) ?? null;
  return { next, isPending: enabled && isPending, error };
}

/**
 * "Review queue" (jobs waiting for a reviewer, oldest first: the BFF's `queue` filter) and "All
 * jobs" (newest first). A tab is a filter and a sort at once, so switching sets both.
 */
import { Tab, Tabs } from '@mui/material';
import RateReviewIcon from '@mui/icons-material/RateReview';
import { useListContext, type SortPayload } from 'react-admin';

export const QUEUE_SORT: SortPayload = { field: 'created_at', order: 'ASC' };
export const ALL_SORT: SortPayload = { field: 'created_at', order: 'DESC' };

export const ParserJobTabs = () => {
  const { filterValues, displayedFilters, setFilters, setSort } = useListContext();
  const value = filterValues.queue ? 'queue' : 'all';
  const choose = (next: string) => {
    if (next === value) return;
    const { queue: _dropped, ...rest } = filterValues as Record<string, unknown>;
    setFilters(next === 'queue' ? { ...rest, queue: true } : rest, displayedFilters, false);
    setSort(next === 'queue' ? QUEUE_SORT : ALL_SORT);
  };
  return (
    <Tabs value={value} onChange={(_e, v: string) => choose(v)} aria-label="Parser job views" sx={{ px: 2 }}>
      <Tab value="queue" label="Review queue" icon={<RateReviewIcon fontSize="small" />} iconPosition="start" />
      <Tab value="all" label="All jobs" />
    </Tabs>
  );
};

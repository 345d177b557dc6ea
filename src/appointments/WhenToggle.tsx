/**
 * "Coming up" or "Past visits" above the appointments list. Coming up (the default) lists every
 * appointment, what is coming first; past visits keeps those whose time has passed, latest first.
 * The choice sets the filter and the order together, so past visits never open on last year's.
 */
import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useListContext } from 'react-admin';

export const UPCOMING_SORT = { field: 'upcoming', order: 'ASC' } as const;
const PAST_SORT = { field: 'start_at', order: 'DESC' } as const;

export const WhenToggle = () => {
  const { filterValues, displayedFilters, setFilters, setSort } = useListContext();
  const past = filterValues.past === true;
  const choose = (next: 'upcoming' | 'past' | null) => {
    if (!next || (next === 'past') === past) return;
    const { past: _past, ...others } = filterValues as Record<string, unknown>;
    setFilters(next === 'past' ? { ...others, past: true } : others, displayedFilters);
    setSort(next === 'past' ? PAST_SORT : UPCOMING_SORT);
  };
  return (
    <ToggleButtonGroup size="small" exclusive value={past ? 'past' : 'upcoming'} onChange={(_e, v) => choose(v)} aria-label="Which visits" sx={{ m: 1 }}>
      <ToggleButton value="upcoming">Coming up</ToggleButton>
      <ToggleButton value="past">Past visits</ToggleButton>
    </ToggleButtonGroup>
  );
};

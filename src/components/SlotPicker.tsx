/**
 * Bookable time slots as a calendar: one cell per day (two weeks of seven for an availability
 * answer), each day's slots as chips with the time, price, a priority mark, the places left and,
 * when the service names it (an extension of ours), the provider. Every time is shown in the zone
 * given (the patient's), named above the calendar: the browser's own zone is never used for a slot.
 *
 * Several providers can serve a zip: when slots name theirs, a filter above the calendar narrows
 * the chips to some providers. Each day shows its earliest slots only (DAY_SLOT_LIMIT), then a
 * "+N more" button that opens the rest of that day; the chosen slot is always shown.
 *
 * When moving an appointment, its current time is marked on its day, so a coordinator sees what
 * the new time replaces.
 */
import { useId, useMemo, useState } from 'react';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import BoltIcon from '@mui/icons-material/Bolt';
import type { DaySlots, TimeSlot } from '../../server/contract';
import { providerName } from './AppointmentStatusChip';
import { formatCalendarDate, formatInZone, TIME, zoneAbbreviation, zoneAbbreviations } from './zonedTime';

/** The unit of `price` is not documented by the service; its providers price in whole US dollars. */
export const formatPrice = (price: number) => `$${price}`;

/** How many slots a day shows before its "+N more" button (its earliest ones). */
export const DAY_SLOT_LIMIT = 6;

/**
 * The provider slug of a slot, or undefined when the answer does not name it: `provider` is an
 * extension of our service (the interface's slot has none; its booking key names it, sealed), so
 * another deployment's slots may lack it, and the dashboard does not check answers' shapes.
 */
export function slotProvider(slot: TimeSlot): string | undefined {
  const provider: unknown = (slot as { provider?: unknown }).provider;
  return typeof provider === 'string' && provider !== '' ? provider : undefined;
}

/** "<time> <zone>, $<price>, [priority, ]<n> place(s) left[, <provider>]": a chip's accessible name. */
export function slotDescription(slot: TimeSlot, timeZone: string): string {
  const at = new Date(slot.start);
  const places = slot.num_appointments_available;
  const provider = slotProvider(slot);
  return [
    `${formatInZone(slot.start, timeZone, TIME)} ${zoneAbbreviation(timeZone, at)}`,
    formatPrice(slot.price),
    slot.is_priority ? 'priority' : null,
    `${places} ${places === 1 ? 'place' : 'places'} left`,
    provider ? providerName(provider) : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The filter's name for slots that do not say their provider, in an answer where others do. */
const UNKNOWN_PROVIDER = '';
const filterLabel = (provider: string) => (provider === UNKNOWN_PROVIDER ? 'Provider not named' : providerName(provider));

/** Providers named by the slots of the days, by display name (unnamed last); empty when none is named. */
export function providersOf(days: DaySlots[]): string[] {
  const named = new Set<string>();
  let unnamed = false;
  for (const day of days) {
    for (const slot of day.slots) {
      const provider = slotProvider(slot);
      if (provider) named.add(provider);
      else unnamed = true;
    }
  }
  if (named.size === 0) return [];
  const out = [...named].sort((a, b) => providerName(a).localeCompare(providerName(b), undefined, { numeric: true }) || a.localeCompare(b));
  return unnamed ? [...out, UNKNOWN_PROVIDER] : out;
}

/**
 * The slots a day shows: those of the chosen providers (all when none is chosen), earliest first,
 * at most `limit` unless expanded, and always the selected one. `hidden` is how many are left out.
 */
export function visibleSlots(
  slots: TimeSlot[],
  opts: { providers?: ReadonlySet<string>; selectedKey?: string | null; expanded?: boolean; limit?: number } = {},
): { shown: TimeSlot[]; matching: number; hidden: number } {
  const { providers, selectedKey, expanded = false, limit = DAY_SLOT_LIMIT } = opts;
  const matching = slots
    .filter((s) => !providers || providers.size === 0 || providers.has(slotProvider(s) ?? UNKNOWN_PROVIDER) || (selectedKey != null && s.booking_key === selectedKey))
    .map((s, i) => ({ s, i, at: Date.parse(s.start) }))
    // Stable: the service's order (start, then provider) among equal starts.
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.s);
  if (expanded || matching.length <= limit) return { shown: matching, matching: matching.length, hidden: 0 };
  const shown = matching.slice(0, limit);
  const selected = selectedKey == null ? undefined : matching.slice(limit).find((s) => s.booking_key === selectedKey);
  if (selected) shown.push(selected);
  return { shown, matching: matching.length, hidden: matching.length - shown.length };
}

export interface SlotPickerProps {
  days: DaySlots[];
  timeZone: string;
  /** Whose zone it is, for the sentence above the calendar. */
  zoneOwner?: string;
  /** The chosen slot's booking key. */
  selectedKey?: string | null;
  /** Without it the calendar is read-only (for those who may see slots but not book them). */
  onSelect?: (slot: TimeSlot) => void;
  onPrevious?: () => void;
  onNext?: () => void;
  previousDisabled?: boolean;
  /** While a new window loads or a booking is in flight. */
  disabled?: boolean;
  /** The appointment's present start (when rescheduling): marked on its day. */
  currentStart?: string | null;
}

/** The calendar day (YYYY-MM-DD) of an instant in the zone, to find the column it belongs to. */
export function dayInZone(iso: string, timeZone: string): string | null {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  } catch {
    return null;
  }
}

const CurrentMark = ({ start, timeZone }: { start: string; timeZone: string }) => {
  const time = formatInZone(start, timeZone, TIME);
  return (
    <Box
      role="note"
      aria-label={`Current appointment: ${time}`}
      data-testid="current-slot"
      sx={{ px: 0.75, py: 0.25, mb: 0.5, border: '1px dashed', borderColor: 'secondary.main', borderRadius: 4, color: 'secondary.main', fontSize: '0.8125rem' }}
    >
      <strong>{time}</strong> current
    </Box>
  );
};

const SlotChip = ({ slot, timeZone, selected, onSelect, disabled }: { slot: TimeSlot; timeZone: string; selected: boolean; onSelect?: (slot: TimeSlot) => void; disabled?: boolean }) => {
  const provider = slotProvider(slot);
  const label = (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', columnGap: 0.75, alignItems: 'baseline' }}>
      <strong>{formatInZone(slot.start, timeZone, TIME)}</strong>
      <span>{formatPrice(slot.price)}</span>
      <Box component="span" sx={{ color: selected ? 'inherit' : 'text.secondary', fontSize: '0.75em' }}>
        {slot.num_appointments_available} left
      </Box>
      {provider && (
        <Box component="span" sx={{ color: selected ? 'inherit' : 'text.secondary', fontSize: '0.75em', flexBasis: '100%' }}>
          {providerName(provider)}
        </Box>
      )}
    </Box>
  );
  const title = [slot.is_priority ? 'Priority slot' : null, provider ? providerName(provider) : null].filter(Boolean).join(' · ');
  return (
    <Chip
      label={label}
      icon={slot.is_priority ? <BoltIcon aria-hidden /> : undefined}
      aria-label={slotDescription(slot, timeZone)}
      title={title || undefined}
      color={selected ? 'primary' : 'default'}
      variant={selected ? 'filled' : 'outlined'}
      size="small"
      disabled={disabled}
      {...(onSelect ? { onClick: () => onSelect(slot), 'aria-pressed': selected } : {})}
      // Narrow day columns: let the label wrap rather than cut the places left off.
      sx={{ justifyContent: 'flex-start', height: 'auto', minHeight: 24, '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
    />
  );
};

/**
 * "All providers" and one toggle per provider present. Choosing none means all; choices survive a
 * change of window (a provider absent from these 14 days is simply not offered here).
 */
const ProviderFilter = ({ providers, chosen, onChange }: { providers: string[]; chosen: ReadonlySet<string>; onChange: (next: Set<string>) => void }) => (
  <Stack direction="row" role="group" aria-label="Filter by provider" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.75, mb: 1, alignItems: 'center' }}>
    <Chip
      label="All providers"
      size="small"
      color={chosen.size === 0 ? 'primary' : 'default'}
      variant={chosen.size === 0 ? 'filled' : 'outlined'}
      aria-pressed={chosen.size === 0}
      onClick={() => onChange(new Set())}
    />
    {providers.map((provider) => {
      const on = chosen.has(provider);
      return (
        <Chip
          key={provider || 'unknown'}
          label={filterLabel(provider)}
          size="small"
          color={on ? 'primary' : 'default'}
          variant={on ? 'filled' : 'outlined'}
          aria-pressed={on}
          onClick={() => {
            const next = new Set(chosen);
            if (on) next.delete(provider);
            else next.add(provider);
            // Every provider chosen is the same as none: say "All providers".
            onChange(next.size === providers.length ? new Set() : next);
          }}
        />
      );
    })}
  </Stack>
);

export const SlotPicker = ({
  days,
  timeZone,
  zoneOwner = "the patient's time zone",
  selectedKey,
  onSelect,
  onPrevious,
  onNext,
  previousDisabled,
  disabled,
  currentStart,
}: SlotPickerProps) => {
  const idPrefix = useId();
  // Provider slugs chosen in the filter ('' for slots that do not name theirs); none chosen: all.
  const [chosenProviders, setChosenProviders] = useState<ReadonlySet<string>>(() => new Set());
  // Days (YYYY-MM-DD) showing all their slots.
  const [expandedDays, setExpandedDays] = useState<ReadonlySet<string>>(() => new Set());
  const providers = useMemo(() => providersOf(days), [days]);
  // Only the chosen providers present in these days count; none of them present: all.
  const activeProviders = useMemo(() => new Set(providers.filter((p) => chosenProviders.has(p))), [providers, chosenProviders]);
  const instants = days.flatMap((d) => d.slots.map((s) => new Date(s.start)));
  const first = days[0]?.date;
  const last = days[days.length - 1]?.date;
  const toggleDay = (date: string) =>
    setExpandedDays((current) => {
      const next = new Set(current);
      if (next.has(date)) next.delete(date);
      else next.add(date);
      return next;
    });
  const chosenNames = [...activeProviders].map(filterLabel).join(' or ');
  const currentDay = currentStart ? dayInZone(currentStart, timeZone) : null;
  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle2" component="p" data-testid="slot-zone">
          {`Times in ${timeZone} (${zoneAbbreviations(timeZone, instants.length ? instants : [new Date(`${first ?? ''}T12:00:00Z`)])}), ${zoneOwner}`}
        </Typography>
        {(onPrevious || onNext) && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button size="small" startIcon={<ChevronLeftIcon />} onClick={onPrevious} disabled={disabled || previousDisabled || !onPrevious}>
              Previous 14 days
            </Button>
            {first && last && (
              <Typography variant="body2" color="text.secondary">
                {`${formatCalendarDate(first)} – ${formatCalendarDate(last)}`}
              </Typography>
            )}
            <Button size="small" endIcon={<ChevronRightIcon />} onClick={onNext} disabled={disabled || !onNext}>
              Next 14 days
            </Button>
          </Stack>
        )}
      </Stack>
      {providers.length > 0 && <ProviderFilter providers={providers} chosen={activeProviders} onChange={setChosenProviders} />}
      <Box
        role="list"
        aria-label="Days"
        sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(7, minmax(0, 1fr))' }, gap: 1 }}
      >
        {days.map((day) => {
          const name = formatCalendarDate(day.date);
          const expanded = expandedDays.has(day.date);
          const { shown, matching, hidden } = visibleSlots(day.slots, { providers: activeProviders, selectedKey, expanded });
          const listId = `${idPrefix}-${day.date}`;
          return (
            <Paper key={day.date} variant="outlined" role="listitem" aria-label={name} sx={{ p: 1, minHeight: 96 }}>
              <Typography variant="caption" component="h4" sx={{ fontWeight: 600, display: 'block', mb: 0.5 }}>
                {name}
              </Typography>
              {currentStart && day.date === currentDay && <CurrentMark start={currentStart} timeZone={timeZone} />}
              {day.slots.length === 0 ? (
                <Typography variant="caption" color="text.secondary">
                  No slots
                </Typography>
              ) : shown.length === 0 ? (
                <Typography variant="caption" color="text.secondary">
                  {`No slots from ${chosenNames}`}
                </Typography>
              ) : (
                <Stack spacing={0.5} id={listId}>
                  {shown.map((slot) => (
                    <SlotChip
                      key={slot.booking_key}
                      slot={slot}
                      timeZone={timeZone}
                      selected={slot.booking_key === selectedKey}
                      onSelect={onSelect}
                      disabled={disabled}
                    />
                  ))}
                </Stack>
              )}
              {(hidden > 0 || (expanded && matching > DAY_SLOT_LIMIT)) && (
                <Button
                  size="small"
                  onClick={() => toggleDay(day.date)}
                  aria-expanded={expanded}
                  aria-controls={listId}
                  aria-label={expanded ? `Show fewer slots on ${name}` : `+${hidden} more slots on ${name}`}
                  sx={{ mt: 0.5, minWidth: 0, px: 0.5, textTransform: 'none' }}
                >
                  {expanded ? 'Show fewer' : `+${hidden} more`}
                </Button>
              )}
            </Paper>
          );
        })}
      </Box>
    </Box>
  );
};

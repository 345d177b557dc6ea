/**
 * Bookable time slots as a calendar: one cell per day (two weeks of seven for an availability
 * answer), each day's slots as chips with the time, price, a priority mark and the places left.
 * Every time is shown in the zone given (the patient's), named above the calendar: the browser's
 * own zone is never used for a slot.
 */
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import BoltIcon from '@mui/icons-material/Bolt';
import type { DaySlots, TimeSlot } from '../../server/contract';
import { formatCalendarDate, formatInZone, TIME, zoneAbbreviation, zoneAbbreviations } from './zonedTime';

/** The unit of `price` is not documented by the service; its providers price in whole US dollars. */
export const formatPrice = (price: number) => `$${price}`;

export function slotDescription(slot: TimeSlot, timeZone: string): string {
  const at = new Date(slot.start);
  const places = slot.num_appointments_available;
  return [
    `${formatInZone(slot.start, timeZone, TIME)} ${zoneAbbreviation(timeZone, at)}`,
    formatPrice(slot.price),
    slot.is_priority ? 'priority' : null,
    `${places} ${places === 1 ? 'place' : 'places'} left`,
  ]
    .filter(Boolean)
    .join(', ');
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
}

const SlotChip = ({ slot, timeZone, selected, onSelect, disabled }: { slot: TimeSlot; timeZone: string; selected: boolean; onSelect?: (slot: TimeSlot) => void; disabled?: boolean }) => {
  const label = (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', columnGap: 0.75, alignItems: 'baseline' }}>
      <strong>{formatInZone(slot.start, timeZone, TIME)}</strong>
      <span>{formatPrice(slot.price)}</span>
      <Box component="span" sx={{ color: selected ? 'inherit' : 'text.secondary', fontSize: '0.75em' }}>
        {slot.num_appointments_available} left
      </Box>
    </Box>
  );
  return (
    <Chip
      label={label}
      icon={slot.is_priority ? <BoltIcon aria-hidden /> : undefined}
      aria-label={slotDescription(slot, timeZone)}
      title={slot.is_priority ? 'Priority slot' : undefined}
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
}: SlotPickerProps) => {
  const instants = days.flatMap((d) => d.slots.map((s) => new Date(s.start)));
  const first = days[0]?.date;
  const last = days[days.length - 1]?.date;
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
      <Box
        role="list"
        aria-label="Days"
        sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(7, minmax(0, 1fr))' }, gap: 1 }}
      >
        {days.map((day) => {
          const name = formatCalendarDate(day.date);
          return (
            <Paper key={day.date} variant="outlined" role="listitem" aria-label={name} sx={{ p: 1, minHeight: 96 }}>
              <Typography variant="caption" component="h4" sx={{ fontWeight: 600, display: 'block', mb: 0.5 }}>
                {name}
              </Typography>
              {day.slots.length === 0 ? (
                <Typography variant="caption" color="text.secondary">
                  No slots
                </Typography>
              ) : (
                <Stack spacing={0.5}>
                  {day.slots.map((slot) => (
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
            </Paper>
          );
        })}
      </Box>
    </Box>
  );
};

import { useState } from 'react';
import { Alert, Box, Button, LinearProgress, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { WalkInCenter, WalkInSlot } from '../../../server/bff/api';
import { DAY, formatCalendarDate, formatInZone, TIME, zoneAbbreviation } from '../../components/zonedTime';
import type { LabdeskDataProvider } from '../../providers/types';

/**
 * The chosen center's next seven days and their free 15-minute slots, in the center's own zone
 * (where the patient walks in); `onPick` books (or moves the visit to) the slot chosen.
 */
export const CenterSlots = ({
  orderId,
  center,
  actionLabel,
  busy,
  onPick,
}: {
  orderId: string;
  center: WalkInCenter;
  actionLabel: string;
  busy: boolean;
  onPick: (slot: WalkInSlot) => void;
}) => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<WalkInSlot | null>(null);
  const query = useQuery({
    queryKey: ['walk-in', 'availability', orderId, center.site_code],
    queryFn: () => dataProvider.getWalkInAvailability(orderId, center.site_code),
    retry: false,
  });
  if (query.isPending) return <LinearProgress aria-label="Loading the center's slots" />;
  if (query.error) {
    return (
      <Alert severity="error" action={<Button onClick={() => void query.refetch()}>Try again</Button>}>
        Could not load the slots: {query.error.message}
      </Alert>
    );
  }
  const zone = query.data.iana_timezone ?? center.iana_timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const days = query.data.days.filter((d) => d.slots.length > 0);
  if (days.length === 0) return <Typography color="text.secondary">No free slots at this center in the next 7 days: choose another center.</Typography>;
  const shown = days.find((d) => d.date === day) ?? days[0]!;
  return (
    <Stack spacing={2} component="section" aria-label={`Slots at ${center.name}`}>
      <Typography variant="body2" color="text.secondary">{`Times at the center (${zoneAbbreviation(zone)}, ${zone})`}</Typography>
      <ToggleButtonGroup exclusive size="small" value={shown.date} onChange={(_e, v: string | null) => v && (setDay(v), setSlot(null))} aria-label="Day" sx={{ flexWrap: 'wrap' }}>
        {days.map((d) => (
          <ToggleButton key={d.date} value={d.date}>
            {formatCalendarDate(d.date, DAY)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} role="group" aria-label="Times">
        {shown.slots.map((s) => (
          <Button key={s.start} size="small" variant={slot?.start === s.start ? 'contained' : 'outlined'} onClick={() => setSlot(s)}>
            {formatInZone(s.start, zone, TIME)}
          </Button>
        ))}
      </Box>
      <Box>
        <Button variant="contained" disabled={!slot || busy} onClick={() => slot && onPick(slot)}>
          {slot ? `${actionLabel} ${formatCalendarDate(shown.date, DAY)}, ${formatInZone(slot.start, zone, TIME)}` : 'Pick a time'}
        </Button>
      </Box>
    </Stack>
  );
};

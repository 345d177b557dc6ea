/**
 * An appointment's events, oldest first, each with its status and when it happened (the viewer's
 * time: these are bookkeeping moments, not the visit). Unknown statuses show raw.
 */
import { Box, Stack, Typography } from '@mui/material';
import { AppointmentStatusChip } from '../../components/AppointmentStatusChip';
import { viewerTimeZone } from '../../components/LocalTimeLabel';
import type { AppointmentEvent } from '../../appointments/types';
import { formatInstant } from '../OrderTimeline';

/** What an event's data says that a coordinator cares about (never the provider request: it holds the address). */
function eventNote(event: AppointmentEvent): string {
  const data = event.data ?? {};
  const notes: string[] = [];
  if (data.rescheduled === true) notes.push('Rescheduled');
  if (data.requested === true) notes.push('Requested without a time');
  if (data.resubmitted === true) notes.push('Submitted to the provider again');
  if (data.reason === 'async_confirmation_timeout') notes.push('The provider did not confirm in time');
  else if (data.reason === 'order_closed') notes.push('The order was closed');
  else if (typeof data.reason === 'string' && data.reason) notes.push(data.reason);
  return notes.join(' · ');
}

export const AppointmentEvents = ({ events }: { events: AppointmentEvent[] | null | undefined }) => {
  const sorted = [...(events ?? [])].sort((a, b) => a.created_at.localeCompare(b.created_at));
  if (sorted.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No events yet.
      </Typography>
    );
  }
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }}>
        {`Times in your local time zone (${viewerTimeZone()})`}
      </Typography>
      <Stack component="ol" aria-label="Appointment events" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {sorted.map((event, index) => {
          const note = eventNote(event);
          return (
            <Stack component="li" key={`${event.created_at}-${index}`} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <AppointmentStatusChip value={event.status} event size="small" />
              <Typography variant="caption" color="text.secondary" component="time" dateTime={event.created_at}>
                {formatInstant(event.created_at)}
              </Typography>
              {note && <Typography variant="body2">{note}</Typography>}
            </Stack>
          );
        })}
      </Stack>
    </Box>
  );
};

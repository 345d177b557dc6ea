/** Appointments today and tomorrow, days of the viewer's own calendar; each day opens the list of that day. */
import { Link as MuiLink, Stack, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import type { AppointmentsUpcoming } from '../../server/bff/api/overview';
import { formatCalendarDate } from '../components/zonedTime';
import { listLink } from './listLink';
import { QueueCard } from './QueueCard';
import { QUEUE_TITLES } from './queueTitles';
import { countText } from './useOverview';

type Day = AppointmentsUpcoming['today'];
const dayLink = (day: Day) => listLink('appointments', { start_date: day.from, end_date: day.to }, { field: 'start_at', order: 'ASC' });

export const UpcomingAppointmentsCard = ({ days }: { days: AppointmentsUpcoming }) => {
  const { today, tomorrow } = days;
  return (
    <QueueCard
      title={QUEUE_TITLES.appointments_upcoming}
      count={today.count + tomorrow.count}
      countText={countText(today)}
      to={dayLink(today)}
      action="Open today’s appointments"
      empty="No appointments today or tomorrow"
    >
      <Stack spacing={0.5}>
        <Typography variant="body2">{formatCalendarDate(today.date)}</Typography>
        <MuiLink component={Link} to={dayLink(tomorrow)}>
          Tomorrow ({formatCalendarDate(tomorrow.date)}): {countText(tomorrow)}
        </MuiLink>
      </Stack>
    </QueueCard>
  );
};

/** Appointment requests (and bookings) the provider has not given a time yet: the appointments list's "Pending". */
import type { OverviewCount } from '../../server/bff/api/overview';
import { listLink } from './listLink';
import { QueueCard } from './QueueCard';
import { QUEUE_TITLES } from './queueTitles';
import { countText } from './useOverview';

export const AppointmentRequestsCard = ({ queue }: { queue: OverviewCount }) => (
  <QueueCard
    title={QUEUE_TITLES.appointment_requests_waiting}
    count={queue.count}
    countText={countText(queue)}
    to={listLink('appointments', { status: ['pending'] })}
    action="Open the waiting requests"
  />
);

/** Appointment requests (and bookings) the provider has not given a time yet: the appointments list's "Pending". */
import type { OverviewCount } from '../../server/bff/api/overview';
import { listLink } from './listLink';
import { QueueCard } from './QueueCard';
import { countText } from './useOverview';

export const AppointmentRequestsCard = ({ queue }: { queue: OverviewCount }) => (
  <QueueCard
    title="Appointment requests waiting for a time"
    count={queue.count}
    countText={countText(queue)}
    to={listLink('appointments', { status: ['pending'] })}
    action="Open the waiting requests"
  />
);

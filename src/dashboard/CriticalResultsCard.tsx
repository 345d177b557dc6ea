/** Critical results nobody has acknowledged yet: the coordinators' most urgent queue. */
import type { OverviewCount } from '../../server/bff/api/overview';
import { listLink } from './listLink';
import { QueueCard } from './QueueCard';
import { QUEUE_TITLES } from './queueTitles';
import { countText } from './useOverview';

export const CriticalResultsCard = ({ queue }: { queue: OverviewCount }) => (
  <QueueCard
    title={QUEUE_TITLES.critical_results_unacknowledged}
    count={queue.count}
    countText={countText(queue)}
    to={listLink('orders', { critical_unacknowledged: true })}
    action="Open the critical results"
  />
);

/** Webhook deliveries that failed (admins): each endpoint's delivery log shows them and replays them. */
import type { OverviewCount } from '../../server/bff/api/overview';
import { QueueCard } from './QueueCard';
import { countText } from './useOverview';

export const FailedWebhooksCard = ({ queue }: { queue: OverviewCount }) => (
  <QueueCard
    title="Failed webhook deliveries"
    count={queue.count}
    countText={countText(queue)}
    to="/webhook-endpoints"
    action="Open the webhook endpoints"
    empty="Every delivery arrived"
  />
);

/** Lab reports waiting for a reviewer, and how long the oldest has waited (in the viewer's zone). */
import { Typography } from '@mui/material';
import type { ReportsAwaitingReview } from '../../server/bff/api/overview';
import { formatInZone, viewerZone } from '../components/zonedTime';
import { QUEUE_SORT } from '../parser-jobs/ParserJobTabs';
import { listLink } from './listLink';
import { QueueCard } from './QueueCard';
import { QUEUE_TITLES } from './queueTitles';
import { countText } from './useOverview';

export const ReviewQueueCard = ({ queue }: { queue: ReportsAwaitingReview }) => (
  <QueueCard
    title={QUEUE_TITLES.reports_awaiting_review}
    count={queue.count}
    countText={countText(queue)}
    to={listLink('parser-jobs', { queue: true }, { field: QUEUE_SORT.field, order: QUEUE_SORT.order })}
    action="Open the review queue"
  >
    {queue.oldest_created_at && (
      <Typography variant="body2">Oldest waiting since {formatInZone(queue.oldest_created_at, viewerZone())}</Typography>
    )}
  </QueueCard>
);

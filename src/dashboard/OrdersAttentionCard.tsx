/** Orders needing attention (lab operations' queue), by reason, each reason opening its own list. */
import { Link as MuiLink, List, ListItem } from '@mui/material';
import { Link } from 'react-router-dom';
import type { OrdersNeedingAttention } from '../../server/bff/api/overview';
import { ORDER_LOW_LEVEL_STATUSES } from '../components/OrderStatusChip';
import { listLink } from './listLink';
import { QueueCard } from './QueueCard';
import { QUEUE_TITLES } from './queueTitles';

const reasonLabel = (reason: string) => ORDER_LOW_LEVEL_STATUSES[reason]?.label ?? reason;

export const OrdersAttentionCard = ({ queue }: { queue: OrdersNeedingAttention }) => (
  <QueueCard
    title={QUEUE_TITLES.orders_needing_attention}
    count={queue.count}
    countText={String(queue.count)}
    to={listLink('orders', { needs_attention: true })}
    action="Open the orders needing attention"
  >
    <List dense disablePadding>
      {queue.by_reason.map(({ reason, count }) => (
        <ListItem key={reason} disableGutters>
          <MuiLink component={Link} to={listLink('orders', { needs_attention: true, status: [reason] })}>
            {reasonLabel(reason)}: {count}
          </MuiLink>
        </ListItem>
      ))}
    </List>
  </QueueCard>
);

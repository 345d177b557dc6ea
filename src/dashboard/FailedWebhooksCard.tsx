/**
 * Webhook deliveries that failed (admins). The card opens where they are listed: the endpoint's
 * delivery log filtered to "failed" (replay is there); with several endpoints, one link per endpoint.
 */
import { Link as MuiLink, List, ListItem } from '@mui/material';
import { useGetMany } from 'react-admin';
import { Link } from 'react-router-dom';
import type { FailedWebhookDeliveries } from '../../server/bff/api/overview';
import { deliveriesLink } from '../webhook-endpoints/deliveriesLink';
import type { WebhookEndpointRecord } from '../webhook-endpoints/types';
import { QueueCard } from './QueueCard';
import { QUEUE_TITLES } from './queueTitles';
import { countText } from './useOverview';

export const FailedWebhooksCard = ({ queue }: { queue: FailedWebhookDeliveries }) => {
  const [only] = queue.endpoints.length === 1 ? queue.endpoints : [];
  return (
    <QueueCard
      title={QUEUE_TITLES.failed_webhook_deliveries}
      count={queue.count}
      countText={countText(queue)}
      to={only ? deliveriesLink(only.id, 'failed') : '/webhook-endpoints'}
      action={only ? 'Open the failed deliveries' : 'Open the webhook endpoints'}
      empty="Every delivery arrived"
    >
      {queue.endpoints.length > 1 && <FailedByEndpoint endpoints={queue.endpoints} />}
    </QueueCard>
  );
};

/** One link per endpoint, named by its URL (its id until the endpoints are read). */
const FailedByEndpoint = ({ endpoints }: { endpoints: FailedWebhookDeliveries['endpoints'] }) => {
  const { data } = useGetMany<WebhookEndpointRecord>('webhook-endpoints', { ids: endpoints.map((e) => e.id) });
  const urlOf = new Map((data ?? []).map((e) => [String(e.id), e.url]));
  return (
    <List dense disablePadding>
      {endpoints.map(({ id, count }) => (
        <ListItem key={id} disableGutters>
          <MuiLink component={Link} to={deliveriesLink(id, 'failed')} sx={{ wordBreak: 'break-all' }}>
            {urlOf.get(id) ?? id}: {count}
          </MuiLink>
        </ListItem>
      ))}
    </List>
  );
};

/**
 * One webhook endpoint: where it points, what it receives, whether it is on, its secret on demand,
 * and its delivery log with replay. Enable/disable and delete are in the toolbar.
 */
import type { ReactNode } from 'react';
import { Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import { DeleteButton, Show, TopToolbar, useRecordContext, WithRecord } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { DetailItem } from '../components/DetailItem';
import { viewerTimeZone } from '../components/LocalTimeLabel';
import { localTime } from '../components/localTime';
import { DELIVERIES_PARAM } from './deliveriesLink';
import { DeliveryLog } from './DeliveryLog';
import { EndpointStatusChip } from './EndpointStatusChip';
import { EventTypeChips } from './EventTypeChips';
import { RevealSecret } from './RevealSecretButton';
import { ToggleEndpointButton } from './ToggleEndpointButton';
import type { WebhookEndpointRecord } from './types';

const Title = () => {
  const record = useRecordContext<WebhookEndpointRecord>();
  return record ? <span>{`Webhook endpoint ${record.url}`}</span> : null;
};

const Actions = () => (
  <TopToolbar>
    <ToggleEndpointButton />
    <DeleteButton
      mutationMode="pessimistic"
      confirmTitle="Delete this endpoint?"
      confirmContent="It receives no more events, and its delivery log goes with it. This cannot be undone."
    />
  </TopToolbar>
);

/** Each value of the endpoint, with "—" for one it has not got. */
const Item = ({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) => (
  <DetailItem label={label} wide={wide} whenEmpty="—">
    {children}
  </DetailItem>
);

const Details = ({ endpoint }: { endpoint: WebhookEndpointRecord }) => (
  <Card component="section" aria-label="Endpoint">
    <CardContent>
      <Grid container spacing={2}>
        <Item label="URL" wide>
          <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {endpoint.url}
          </Typography>
        </Item>
        <Item label="Status">
          <EndpointStatusChip endpoint={endpoint} />
        </Item>
        <Item label="Event types">
          <EventTypeChips types={endpoint.event_types} />
        </Item>
        <Item label="Description" wide>
          {endpoint.description}
        </Item>
        <Item label={`Created (${viewerTimeZone()})`}>{localTime(endpoint.created_at)}</Item>
        <Item label="Updated">{localTime(endpoint.updated_at)}</Item>
        <Item label="Signing secret" wide>
          <RevealSecret endpointId={endpoint.id} />
        </Item>
      </Grid>
    </CardContent>
  </Card>
);

export const WebhookEndpointShow = () => {
  const [search] = useSearchParams();
  // `?deliveries=<status>` (deliveriesLink) opens the log on that status.
  const initialStatus = search.get(DELIVERIES_PARAM) ?? undefined;
  return (
    <Show<WebhookEndpointRecord> title={<Title />} actions={<Actions />} component="div">
      <WithRecord<WebhookEndpointRecord>
        render={(endpoint) => (
          <Stack spacing={2} sx={{ mt: 1 }}>
            <Details endpoint={endpoint} />
            <DeliveryLog endpointId={endpoint.id} initialStatus={initialStatus} />
          </Stack>
        )}
      />
    </Show>
  );
};

/**
 * The team's webhook endpoints (at most 20, so one page): where events go, which, and whether
 * delivery is on. The BFF answers them in the service's order; nothing else is sortable.
 */
import { Typography } from '@mui/material';
import { DataTable, DateField, List } from 'react-admin';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { EndpointStatusChip } from './EndpointStatusChip';
import { EventTypeChips } from './EventTypeChips';
import type { WebhookEndpointRecord } from './types';
import { TeamWebhookSettings } from './TeamWebhookSettings';
import { WebhookEndpointsEmpty } from './WebhookEndpointsEmpty';
import { ListLoadError } from '../components/ListLoadError';

const Column = DataTable.Col<WebhookEndpointRecord>;

export const WebhookEndpointList = () => (
  <List<WebhookEndpointRecord> error={<ListLoadError />} title="Webhook endpoints" perPage={25} exporter={false} empty={<WebhookEndpointsEmpty />} pagination={false}>
    <TeamWebhookSettings />
    <DataTable<WebhookEndpointRecord> rowClick="show" bulkActionButtons={false}>
      <Column label="URL" disableSort render={(r) => <Typography variant="body2" sx={{ wordBreak: 'break-all', fontFamily: 'monospace' }}>{r.url}</Typography>} />
      <Column label="Event types" disableSort render={(r) => <EventTypeChips types={r.event_types} />} />
      <Column label="Status" disableSort render={(r) => <EndpointStatusChip endpoint={r} />} />
      <Column label="Description" disableSort render={(r) => r.description || '—'} />
      <Column source="created_at" label={<LocalTimeLabel label="Created" />} disableSort>
        <DateField source="created_at" showTime />
      </Column>
    </DataTable>
  </List>
);

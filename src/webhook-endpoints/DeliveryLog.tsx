/**
 * An endpoint's delivery log, newest first. The BFF pages it by cursor (no total): partial
 * pagination. A row expands to its attempts; failed and cancelled deliveries can be replayed.
 * Times are the viewer's own. `initialStatus` opens it filtered (the overview's "failed" link).
 */
import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import { DataTable, DateField, ListBase, SelectInput, FilterForm, type SortPayload } from 'react-admin';
import { ListPagination } from '../components/ListPagination';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { DeliveryAttempts } from './DeliveryAttempts';
import { DELIVERY_STATUSES, DeliveryStatusChip } from './DeliveryStatusChip';
import { ReplayButton } from './ReplayButton';
import type { WebhookDeliveryRecord } from './types';

// `id` is every BFF list's natural order (here: newest first); the log has no other.
const NEWEST_FIRST: SortPayload = { field: 'id', order: 'DESC' };

const Column = DataTable.Col<WebhookDeliveryRecord>;

const statusFilter = [
  <SelectInput
    key="status"
    source="status"
    label="Status"
    choices={Object.entries(DELIVERY_STATUSES).map(([id, s]) => ({ id, name: s.label }))}
    alwaysOn
    emptyText="Any status"
    sx={{ minWidth: 180 }}
  />,
];

const NoDeliveries = () => (
  <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
    No deliveries yet. Events the endpoint subscribes to are listed here as they are sent.
  </Typography>
);

export const DeliveryLog = ({ endpointId, initialStatus }: { endpointId: string; initialStatus?: string }) => (
  <Card component="section" aria-label="Deliveries">
    <CardHeader title="Deliveries" subheader="Newest first. Open a row for its attempts." />
    <CardContent sx={{ pt: 0 }}>
      <ListBase<WebhookDeliveryRecord>
        resource="webhook-deliveries"
        filter={{ endpoint_id: endpointId }}
        sort={NEWEST_FIRST}
        perPage={25}
        filterDefaultValues={initialStatus && initialStatus in DELIVERY_STATUSES ? { status: initialStatus } : undefined}
        disableSyncWithLocation
        storeKey={false}
      >
        <FilterForm filters={statusFilter} />
        <DataTable<WebhookDeliveryRecord> rowClick="expand" expand={<DeliveryAttempts />} bulkActionButtons={false} empty={<NoDeliveries />}>
          <Column source="created_at" label={<LocalTimeLabel label="Created" />} disableSort>
            <DateField source="created_at" showTime />
          </Column>
          <Column label="Event" disableSort render={(r) => <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>{r.event_type}</Typography>} />
          <Column label="Subject" disableSort render={(r) => r.subject_id ?? '—'} />
          <Column label="Status" disableSort render={(r) => <DeliveryStatusChip value={r.status} />} />
          <Column label="Attempts" disableSort render={(r) => `${r.attempt_count}${r.last_status_code ? ` (last: ${r.last_status_code})` : ''}`} />
          <Column label={<LocalTimeLabel label="Delivered / next attempt" />} disableSort render={(r) => <WhenField delivery={r} />} />
          <Column label="" disableSort>
            <ReplayButton />
          </Column>
        </DataTable>
        <ListPagination rowsPerPageOptions={[25, 50, 100]} />
      </ListBase>
    </CardContent>
  </Card>
);

const WhenField = ({ delivery }: { delivery: WebhookDeliveryRecord }) =>
  delivery.delivered_at ? (
    <DateField record={delivery} source="delivered_at" showTime />
  ) : delivery.next_attempt_at ? (
    <span>
      {'Next: '}
      <DateField record={delivery} source="next_attempt_at" showTime />
    </span>
  ) : (
    <span>—</span>
  );

import { Chip, Tab, Tabs, Typography } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import PriorityHighIcon from '@mui/icons-material/PriorityHigh';
import {
  AutocompleteInput,
  DataTable,
  DateField,
  List,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectArrayInput,
  TextField,
  useListContext,
  usePermissions,
} from 'react-admin';
import { can } from '../auth/permissions';
import { formatTimeInStatus } from './triage/timeInStatus';
import { TrackingLinks } from './triage/TrackingLinks';
import { TriageBulkActions } from './triage/TriageBulkActions';
import type { TriageOrderRecord } from '../../server/bff/api';
import { COLLECTION_METHODS, choicesOf, labelOf } from '../components/labLabels';
import { LocalDateInput } from '../components/LocalDateInput';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { ORDER_LOW_LEVEL_STATUSES, OrderStatusChip } from '../components/OrderStatusChip';
import type { OrderRecord } from './types';
import { ListPagination } from '../components/ListPagination';
import { ListLoadError } from '../components/ListLoadError';

export const patientName = (order: Pick<OrderRecord, 'patient_details'>): string => {
  const d = order.patient_details ?? {};
  const name = [d.first_name, d.last_name].filter((p) => typeof p === 'string' && p).join(' ');
  return name;
};

const statusChoices = Object.entries(ORDER_LOW_LEVEL_STATUSES).map(([id, s]) => ({ id, name: s.label }));

const filters = [
  <SearchInput
    key="q"
    source="q"
    alwaysOn
    placeholder="Order id, sample id, patient or client user id"
    slotProps={{ htmlInput: { 'aria-label': 'Search orders' } }}
    sx={{ minWidth: 360 }}
  />,
  <SelectArrayInput key="status" source="status" label="Status" choices={statusChoices} sx={{ minWidth: 200 }} />,
  <SelectArrayInput
    key="collection_method"
    source="collection_method"
    label="Collection method"
    choices={choicesOf(COLLECTION_METHODS)}
    sx={{ minWidth: 200 }}
  />,
  <LocalDateInput key="start_date" source="start_date" label="Created from" edge="start" />,
  <LocalDateInput key="end_date" source="end_date" label="Created until" edge="end" />,
  <ReferenceInput key="user_id" source="user_id" reference="users">
    <AutocompleteInput
      label="User"
      optionText="client_user_id"
      filterToQuery={(q: string) => ({ q })}
      sx={{ minWidth: 220 }}
    />
  </ReferenceInput>,
];

/**
 * "All orders", "Needs attention" (problems in transit, failures, lost samples, and critical values
 * nobody has acknowledged) and "Critical results" (those critical values alone): filter presets.
 */
export const NeedsAttentionTabs = () => {
  const { filterValues, displayedFilters, setFilters, sort, setSort } = useListContext();
  const value = filterValues.critical_unacknowledged ? 'critical' : filterValues.needs_attention ? 'attention' : 'all';
  const choose = (next: string) => {
    const { needs_attention: _a, critical_unacknowledged: _c, ...rest } = filterValues as Record<string, unknown>;
    const preset = next === 'attention' ? { needs_attention: true } : next === 'critical' ? { critical_unacknowledged: true } : {};
    setFilters({ ...rest, ...preset }, displayedFilters, false);
    // Time in status is the queue's own sort (the BFF refuses it elsewhere).
    if (next !== 'attention' && sort.field === 'time_in_status') setSort({ field: 'created_at', order: 'DESC' });
  };
  return (
    <Tabs value={value} onChange={(_e, v: string) => choose(v)} aria-label="Order views" sx={{ px: 2 }}>
      <Tab value="all" label="All orders" />
      <Tab value="attention" label="Needs attention" icon={<WarningAmberIcon fontSize="small" />} iconPosition="start" />
      <Tab value="critical" label="Critical results" icon={<PriorityHighIcon fontSize="small" color="error" />} iconPosition="start" />
    </Tabs>
  );
};

const Column = DataTable.Col<OrderRecord>;

const NoMatch = () => {
  const { filterValues } = useListContext();
  return (
    <Typography sx={{ p: 2 }} color="text.secondary">
      {filterValues.critical_unacknowledged
        ? 'No critical result waits for acknowledgement.'
        : filterValues.needs_attention
          ? 'No order needs attention right now.'
          : 'No orders match these filters.'}
    </Typography>
  );
};

// Sortable as the BFF allows: created_at, patient_name and last_status (the status column, which
// shows low_level_status), and in the needs-attention queue time_in_status. Any other sort would be a 400.
// The create button shows when App.tsx gives the resource its create view (orders:write only).
// No CSV export: orders carry patient details, which should not leave the dashboard in bulk.
export const OrderList = () => (
  <List<OrderRecord> error={<ListLoadError />} pagination={<ListPagination />} sort={{ field: 'created_at', order: 'DESC' }} filters={filters} perPage={25} empty={false} exporter={false}>
    <NeedsAttentionTabs />
    <OrderTable />
  </List>
);

/** The queue (needs attention) also shows who works on each order, how long it has been in its status, and tracking; it can be claimed and resolved in bulk. */
const OrderTable = () => {
  const { filterValues } = useListContext();
  const { permissions } = usePermissions();
  const queue = filterValues.needs_attention === true && !filterValues.critical_unacknowledged;
  const triage = queue && can(permissions, 'orders:triage');
  return (
    <DataTable<OrderRecord> rowClick="show" bulkActionButtons={triage ? <TriageBulkActions /> : false} empty={<NoMatch />}>
      <Column source="created_at" label={<LocalTimeLabel label="Created" />}>
        <DateField source="created_at" showTime />
      </Column>
      <Column source="patient_name" label="Patient" render={(r) => patientName(r) || '—'} />
      <Column source="user_id" label="User" disableSort>
        <ReferenceField source="user_id" reference="users" link={false}>
          <TextField source="client_user_id" />
        </ReferenceField>
      </Column>
      <Column label="Lab test" disableSort render={(r) => r.lab_test?.name ?? ''} />
      <Column label="Collection" disableSort render={(r) => labelOf(COLLECTION_METHODS, r.details?.type)} />
      <Column
        source="last_status"
        label="Status"
        render={(r) => <OrderStatusChip value={r.low_level_status} size="small" />}
      />
      {queue && <Column source="time_in_status" label="In status" render={(r) => formatTimeInStatus((r as TriageOrderRecord).status_since)} />}
      {queue && (
        <Column
          label="Owner"
          disableSort
          render={(r) => {
            const owner = (r as TriageOrderRecord).triage?.owner;
            return owner ? owner.name || owner.email : <Typography variant="body2" color="text.secondary" component="span">Unclaimed</Typography>;
          }}
        />
      )}
      {queue && <Column label="Tracking" disableSort render={(r) => <TrackingLinks order={r} compact />} />}
      <Column source="status" label="Stage" disableSort render={(r) => <OrderStatusChip value={r.status} level="top" size="small" />} />
      <Column
        label="Results"
        disableSort
        render={(r) =>
          r.interpretation ? (
            <Chip size="small" label={r.interpretation} color={r.interpretation === 'critical' ? 'error' : r.interpretation === 'abnormal' ? 'warning' : 'default'} variant={r.interpretation === 'normal' ? 'outlined' : 'filled'} />
          ) : (
            ''
          )
        }
      />
    </DataTable>
  );
};

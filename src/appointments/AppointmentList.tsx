/**
 * The team's at-home draws across orders, what is coming first (past visits after, or on their
 * own with "Past visits"). Each start is shown in the appointment's own zone (named), with the
 * viewer's time under it where their clock reads differently.
 */
import type { MouseEvent } from 'react';
import { Typography } from '@mui/material';
import { DataTable, Link, List, SelectArrayInput, useCreatePath, useListContext } from 'react-admin';
import { APPOINTMENT_STATUSES, AppointmentStatusChip, PROVIDER_NAMES, providerName } from '../components/AppointmentStatusChip';
import { choicesOf } from '../components/labLabels';
import { LocalDateInput } from '../components/LocalDateInput';
import { OrderStatusChip } from '../components/OrderStatusChip';
import { ZonedDateTime } from '../components/ZonedDateTime';
import { AppointmentsEmpty } from './AppointmentsEmpty';
import type { AppointmentRecord } from './types';
import { ListPagination } from '../components/ListPagination';
import { UPCOMING_SORT, WhenToggle } from './WhenToggle';

const filters = [
  <SelectArrayInput
    key="status"
    source="status"
    label="Status"
    choices={Object.entries(APPOINTMENT_STATUSES).map(([id, s]) => ({ id, name: s.label }))}
    alwaysOn
    sx={{ minWidth: 200 }}
  />,
  <SelectArrayInput key="provider" source="provider" label="Provider" choices={choicesOf(PROVIDER_NAMES)} alwaysOn sx={{ minWidth: 200 }} />,
  // The viewer's own days, sent as instants (as the orders list does); the BFF compares start_at.
  <LocalDateInput key="start_date" source="start_date" label="Starts from" edge="start" />,
  <LocalDateInput key="end_date" source="end_date" label="Starts until" edge="end" />,
];

const Column = DataTable.Col<AppointmentRecord>;

const NoMatch = () => {
  const { filterValues } = useListContext();
  return (
    <Typography sx={{ p: 2 }} color="text.secondary">
      {filterValues.past === true && Object.keys(filterValues).length === 1
        ? 'No past visits yet: choose "Coming up" for the draws ahead.'
        : 'No appointments match these filters.'}
    </Typography>
  );
};

const OrderLink = ({ record }: { record: AppointmentRecord }) => {
  const createPath = useCreatePath();
  const orderId = record.order?.id ?? record.order_id ?? record.id;
  return (
    // The row opens the appointment; this link opens the order, and must not also click the row.
    <Link to={createPath({ resource: 'orders', id: orderId, type: 'show' })} onClick={(e: MouseEvent) => e.stopPropagation()}>
      {`Order ${String(orderId).slice(0, 8)}`}
    </Link>
  );
};

// Sortable as the BFF allows: upcoming (the default: from now on, then requested, then past),
// start_at, status, provider (and id). Requested appointments have no time. No CSV export: rows carry patient names and addresses.
export const AppointmentList = () => (
  <List<AppointmentRecord> pagination={<ListPagination />} sort={UPCOMING_SORT} filters={filters} perPage={25} empty={<AppointmentsEmpty />} exporter={false}>
    <WhenToggle />
    <DataTable<AppointmentRecord> rowClick="show" bulkActionButtons={false} empty={<NoMatch />}>
      <Column
        source="start_at"
        label="Starts (patient's time)"
        render={(r) => <ZonedDateTime value={r.start_at} timeZone={r.iana_timezone} empty="Requested, no time yet" />}
      />
      <Column label="Patient" disableSort render={(r) => r.order?.patient_name || '—'} />
      <Column source="provider" label="Provider" render={(r) => providerName(r.provider)} />
      <Column source="status" label="Status" render={(r) => <AppointmentStatusChip value={r.status} size="small" />} />
      <Column
        label="Order"
        disableSort
        render={(r) => (
          <span>
            <OrderLink record={r} />{' '}
            {r.order?.low_level_status && <OrderStatusChip value={r.order.low_level_status} size="small" />}
          </span>
        )}
      />
    </DataTable>
  </List>
);

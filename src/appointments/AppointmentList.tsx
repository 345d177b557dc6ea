/**
 * The team's at-home draws and walk-in visits across orders, soonest first. Each start is shown in the appointment's
 * own zone (named), with the viewer's time under it where their clock reads differently.
 */
import type { MouseEvent } from 'react';
import { Typography } from '@mui/material';
import { DataTable, Link, List, SelectArrayInput, useCreatePath } from 'react-admin';
import { APPOINTMENT_STATUSES, AppointmentStatusChip, PROVIDER_NAMES, providerName } from '../components/AppointmentStatusChip';
import { choicesOf } from '../components/labLabels';
import { LocalDateInput } from '../components/LocalDateInput';
import { OrderStatusChip } from '../components/OrderStatusChip';
import { ZonedDateTime } from '../components/ZonedDateTime';
import { AppointmentsEmpty } from './AppointmentsEmpty';
import type { AppointmentRecord } from './types';
import { ListPagination } from '../components/ListPagination';

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
const PSC_VISIT = 'patient_service_center';

const NoMatch = () => (
  <Typography sx={{ p: 2 }} color="text.secondary">
    No appointments match these filters.
  </Typography>
);

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

// Sortable as the BFF allows: start_at, status, provider (and id). Requested appointments have no
// time and come last. No CSV export: rows carry patient names and addresses.
export const AppointmentList = () => {
  const createPath = useCreatePath();
  // A walk-in visit has no appointment page: its row opens its order, where the visit is managed.
  const rowClick = (_id: unknown, _resource: string, record: AppointmentRecord) =>
    record.type === PSC_VISIT ? createPath({ resource: 'orders', id: record.order?.id ?? record.id, type: 'show' }) : 'show';
  return (
    <List<AppointmentRecord> pagination={<ListPagination />} sort={{ field: 'start_at', order: 'ASC' }} filters={filters} perPage={25} empty={<AppointmentsEmpty />} exporter={false}>
      <DataTable<AppointmentRecord> rowClick={rowClick} bulkActionButtons={false} empty={<NoMatch />}>
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
};

/**
 * The team's at-home draws and walk-in visits across orders, what is coming first (past visits after, or on their
 * own with "Past visits"). Each start is shown in the appointment's own zone (named), with the
 * viewer's time under it where their clock reads differently.
 */
import { Typography } from '@mui/material';
import { DataTable, List, SelectArrayInput, useCreatePath, useListContext } from 'react-admin';
import { APPOINTMENT_STATUSES, AppointmentStatusChip, PROVIDER_NAMES, providerName } from '../components/AppointmentStatusChip';
import { choicesOf } from '../components/labLabels';
import { LocalDateInput } from '../components/LocalDateInput';
import { OrderStatusChip } from '../components/OrderStatusChip';
import { OrderLink } from '../orders/OrderLink';
import { ZonedDateTime } from '../components/ZonedDateTime';
import { appointmentOrderId } from './appointmentOrderId';
import { AppointmentsEmpty } from './AppointmentsEmpty';
import type { AppointmentRecord } from './types';
import { ListPagination } from '../components/ListPagination';
import { UPCOMING_SORT, WhenToggle } from './WhenToggle';
import { ListLoadError } from '../components/ListLoadError';

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

// Sortable as the BFF allows: upcoming (the default: from now on, then requested, then past),
// start_at, status, provider (and id). Requested appointments have no time. No CSV export: rows carry patient names and addresses.
export const AppointmentList = () => {
  const createPath = useCreatePath();
  // A walk-in visit has no appointment page: its row opens its order, where the visit is managed.
  const rowClick = (_id: unknown, _resource: string, record: AppointmentRecord) =>
    record.type === PSC_VISIT ? createPath({ resource: 'orders', id: appointmentOrderId(record), type: 'show' }) : 'show';
  return (
    <List<AppointmentRecord> error={<ListLoadError />} pagination={<ListPagination />} sort={UPCOMING_SORT} filters={filters} perPage={25} empty={<AppointmentsEmpty />} exporter={false}>
      <WhenToggle />
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
              <OrderLink orderId={appointmentOrderId(r)} />{' '}
              {r.order?.low_level_status && <OrderStatusChip value={r.order.low_level_status} size="small" />}
            </span>
          )}
        />
      </DataTable>
    </List>
  );
};

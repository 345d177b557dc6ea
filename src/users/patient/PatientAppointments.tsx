import { DataTable, ListBase, useRecordContext } from 'react-admin';
import { appointmentOrderId } from '../../appointments/appointmentOrderId';
import type { AppointmentRecord } from '../../appointments/types';
import { AppointmentStatusChip, providerName } from '../../components/AppointmentStatusChip';
import { ListPagination } from '../../components/ListPagination';
import { ZonedDateTime } from '../../components/ZonedDateTime';
import { OrderLink } from '../../orders/OrderLink';
import type { UserRecord } from '../types';
import { TabEmpty } from './TabEmpty';

const Column = DataTable.Col<AppointmentRecord>;

/** The patient's at-home visits, soonest first (requested ones without a time come last), each in its own zone. */
export const PatientAppointments = () => {
  const record = useRecordContext<UserRecord>();
  if (!record) return null;
  return (
    <ListBase<AppointmentRecord>
      resource="appointments"
      filter={{ user_id: record.id }}
      sort={{ field: 'start_at', order: 'ASC' }}
      perPage={10}
      disableSyncWithLocation
      storeKey={false}
      empty={
        <TabEmpty title="No appointments yet">
          Book an at-home visit from one of this patient&apos;s at-home orders (Orders tab): open the order and pick a time.
        </TabEmpty>
      }
    >
      <DataTable<AppointmentRecord> rowClick="show" bulkActionButtons={false} aria-label="Appointments of this patient">
        <Column
          label="Starts (patient's time)"
          disableSort
          render={(r) => <ZonedDateTime value={r.start_at} timeZone={r.iana_timezone} empty="Requested, no time yet" />}
        />
        <Column label="Provider" disableSort render={(r) => providerName(r.provider)} />
        <Column label="Status" disableSort render={(r) => <AppointmentStatusChip value={r.status} size="small" />} />
        <Column label="Order" disableSort render={(r) => <OrderLink orderId={appointmentOrderId(r)} />} />
      </DataTable>
      <ListPagination rowsPerPageOptions={[10]} />
    </ListBase>
  );
};

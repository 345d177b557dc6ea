import { DataTable, DateField, ListBase, usePermissions, useRecordContext } from 'react-admin';
import { can } from '../../auth/permissions';
import { ListPagination } from '../../components/ListPagination';
import { LocalTimeLabel } from '../../components/LocalTimeLabel';
import { OrderStatusChip } from '../../components/OrderStatusChip';
import { COLLECTION_METHODS, labelOf } from '../../components/labLabels';
import { OrderLink } from '../../orders/OrderLink';
import type { OrderRecord } from '../../orders/types';
import type { UserRecord } from '../types';
import { NewOrderButton } from './PatientActions';
import { TabEmpty } from './TabEmpty';

const Column = DataTable.Col<OrderRecord>;

/** The patient's orders, newest first; each opens its order. */
export const PatientOrders = () => {
  const record = useRecordContext<UserRecord>();
  const { permissions } = usePermissions();
  if (!record) return null;
  const empty = (
    <TabEmpty title="No orders yet" action={can(permissions, 'orders:write') ? <NewOrderButton userId={record.id} label="New order" /> : undefined}>
      Orders placed for this patient appear here.
    </TabEmpty>
  );
  return (
    <ListBase<OrderRecord>
      resource="orders"
      filter={{ user_id: record.id }}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={10}
      disableSyncWithLocation
      storeKey={false}
      empty={empty}
    >
      <DataTable<OrderRecord> rowClick="show" bulkActionButtons={false} aria-label="Orders of this patient">
        <Column source="created_at" label={<LocalTimeLabel label="Created" />} disableSort>
          <DateField source="created_at" showTime />
        </Column>
        <Column label="Order" disableSort render={(r) => <OrderLink orderId={String(r.id)} />} />
        <Column label="Lab test" disableSort render={(r) => r.lab_test?.name ?? ''} />
        <Column label="Collection" disableSort render={(r) => labelOf(COLLECTION_METHODS, r.details?.type)} />
        <Column label="Status" disableSort render={(r) => <OrderStatusChip value={r.low_level_status} size="small" />} />
      </DataTable>
      <ListPagination rowsPerPageOptions={[10]} />
    </ListBase>
  );
};

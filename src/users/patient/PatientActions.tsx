/**
 * What a coordinator starts from the patient's page: a new order (pre-filled from the patient's
 * last order, see ../orderPrefill.ts), a report upload filed under them, and editing the patient.
 * Each opens the resource's own create form through react-admin's `state.record`.
 */
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, EditButton, Link, TopToolbar, useCreatePath, useGetList, usePermissions, useRecordContext } from 'react-admin';
import { can } from '../../auth/permissions';
import type { OrderRecord } from '../../orders/types';
import { orderPrefill } from '../orderPrefill';
import type { UserRecord } from '../types';

export const NewOrderButton = ({ userId, label = 'New order for this patient' }: { userId: string; label?: string }) => {
  const createPath = useCreatePath();
  const { data, isPending } = useGetList<OrderRecord>('orders', {
    filter: { user_id: userId },
    sort: { field: 'created_at', order: 'DESC' },
    pagination: { page: 1, perPage: 1 },
  });
  return (
    <Button
      component={Link}
      to={createPath({ resource: 'orders', type: 'create' })}
      state={{ record: orderPrefill(userId, data?.[0]) }}
      // Until the last order is known the form would open empty.
      disabled={isPending}
      label={label}
    >
      <AddShoppingCartIcon />
    </Button>
  );
};

export const UploadReportButton = ({ userId, label = 'Upload a report for this patient' }: { userId: string; label?: string }) => {
  const createPath = useCreatePath();
  return (
    <Button component={Link} to={createPath({ resource: 'parser-jobs', type: 'create' })} state={{ record: { user_id: userId } }} label={label}>
      <UploadFileIcon />
    </Button>
  );
};

export const PatientActions = () => {
  const record = useRecordContext<UserRecord>();
  const { permissions } = usePermissions();
  if (!record) return null;
  return (
    <TopToolbar>
      {can(permissions, 'orders:write') && <NewOrderButton userId={record.id} />}
      {can(permissions, 'parser:upload') && <UploadReportButton userId={record.id} />}
      {can(permissions, 'users:write') && <EditButton />}
    </TopToolbar>
  );
};

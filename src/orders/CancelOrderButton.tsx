/**
 * Cancels an order after a confirmation, pessimistically: the page changes only once the BFF
 * (and the service) said yes. Shown for orders that are not final, to those who may write orders.
 */
import { useState } from 'react';
import CancelIcon from '@mui/icons-material/Cancel';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Confirm, HttpError, useDataProvider, useNotify, usePermissions, useRecordContext } from 'react-admin';
import { can } from '../auth/permissions';
import { FINAL_TOP_LEVEL_STATUSES } from '../components/OrderStatusChip';
import type { LabdeskDataProvider } from '../providers/types';
import type { OrderRecord } from './types';

export const isFinal = (order: Pick<OrderRecord, 'status'>) => (FINAL_TOP_LEVEL_STATUSES as readonly string[]).includes(order.status ?? '');

export const CancelOrderButton = () => {
  const record = useRecordContext<OrderRecord>();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => dataProvider.cancelOrder(id),
    onSuccess: (order) => {
      setOpen(false);
      notify('Order cancelled', { type: 'success' });
      // The page shows the cancelled order at once; lists and the order's appointment read again.
      queryClient.setQueryData(['orders', 'getOne', { id: String(order.id), meta: undefined }], order);
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: (error: unknown) => {
      setOpen(false);
      const message = error instanceof HttpError || error instanceof Error ? error.message : 'the server did not say why';
      notify(`Could not cancel the order: ${message}`, { type: 'error' });
    },
  });
  if (!record || !can(permissions, 'orders:write') || isFinal(record)) return null;
  return (
    <>
      <Button label="Cancel order" color="error" onClick={() => setOpen(true)} disabled={mutation.isPending}>
        <CancelIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={mutation.isPending}
        title="Cancel this order?"
        content="The lab is told to stop work on it. A cancelled order cannot be resumed; place a new order instead."
        confirm="Cancel order"
        cancel="Keep order"
        confirmColor="warning"
        onConfirm={() => mutation.mutate(String(record.id))}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

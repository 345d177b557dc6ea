/**
 * Cancels an order after a confirmation, pessimistically: the page changes only once the BFF
 * (and the service) said yes. Shown for orders that are not final, to those who may write orders.
 */
import { useState } from 'react';
import CancelIcon from '@mui/icons-material/Cancel';
import { useMutation } from '@tanstack/react-query';
import { Button, Confirm, HttpError, useNotify, usePermissions, useRecordContext, useRefresh } from 'react-admin';
import { can } from '../auth/permissions';
import { FINAL_TOP_LEVEL_STATUSES } from '../components/OrderStatusChip';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';
import type { OrderRecord } from './types';

export const isFinal = (order: Pick<OrderRecord, 'status'>) => FINAL_TOP_LEVEL_STATUSES.includes(order.status ?? '');

export const CancelOrderButton = () => {
  const record = useRecordContext<OrderRecord>();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const refresh = useRefresh();
  const mutation = useMutation({
    mutationFn: async (id: string) => {
      const { json } = await httpClient(`${API_URL}/orders/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
      return json as OrderRecord;
    },
    onSuccess: () => {
      setOpen(false);
      notify('Order cancelled', { type: 'success' });
      refresh();
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

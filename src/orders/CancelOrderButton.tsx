/**
 * Cancels an order after asking why, pessimistically: the page changes only once the BFF (and the
 * service) said yes. The reason is kept by the BFF as a staff note on the order (the service's
 * cancel takes none). Shown for orders that are not final, to those who may write orders.
 */
import { useState } from 'react';
import CancelIcon from '@mui/icons-material/Cancel';
import { Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, required, useDataProvider, useNotify, usePermissions, useRecordContext } from 'react-admin';
import { TRIAGE_NOTE_MAX } from '../../server/bff/api';
import { can } from '../auth/permissions';
import { CountedTextInput } from '../components/CountedTextInput';
import { FINAL_TOP_LEVEL_STATUSES } from '../components/OrderStatusChip';
import type { LabdeskDataProvider } from '../providers/types';
import { SubmitButton } from './scheduling/SubmitButton';
import { problemOf } from './triage/problemOf';
import type { OrderRecord } from './types';

export const isFinal = (order: Pick<OrderRecord, 'status'>) => (FINAL_TOP_LEVEL_STATUSES as readonly string[]).includes(order.status ?? '');

const EMPTY = {};

export const CancelOrderButton = () => {
  const record = useRecordContext<OrderRecord>();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const queryClient = useQueryClient();
  if (!record || !can(permissions, 'orders:write') || isFinal(record)) return null;

  const submit = async (values: Record<string, unknown>) => {
    try {
      const order = await dataProvider.cancelOrder(String(record.id), String(values.reason ?? '').trim());
      setOpen(false);
      notify('Order cancelled', { type: 'success' });
      // The page shows the cancelled order at once; lists, notes and the order's appointment read again.
      queryClient.setQueryData(['orders', 'getOne', { id: String(order.id), meta: undefined }], order);
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: ['appointments'] });
      return undefined;
    } catch (error) {
      const problem = problemOf(error);
      if (problem.errors?.reason) return { reason: problem.errors.reason };
      setOpen(false);
      notify(`Could not cancel the order: ${problem.message}`, { type: 'error' });
      return undefined;
    }
  };

  return (
    <>
      <Button label="Cancel order" color="error" onClick={() => setOpen(true)}>
        <CancelIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="cancel-order-title">
        <Form record={EMPTY} onSubmit={submit} noValidate>
          <DialogTitle id="cancel-order-title">Cancel this order?</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              The lab is told to stop work on it. A cancelled order cannot be resumed; place a new order instead.
            </Typography>
            <CountedTextInput
              source="reason"
              label="Reason"
              max={TRIAGE_NOTE_MAX}
              validate={required('Say why the order is cancelled')}
              helperText="Kept as a staff note on the order; not sent to the lab"
            />
          </DialogContent>
          <DialogActions>
            <MuiButton onClick={() => setOpen(false)}>Keep order</MuiButton>
            <SubmitButton label="Cancel order" color="error" icon={<CancelIcon />} />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};

/**
 * On-site collection orders: lab operations mark the draw completed once the sample is taken on
 * site (after a confirmation, as it cannot be undone); the order then goes to the lab.
 */
import { useState } from 'react';
import { Button, Card, CardContent, CardHeader, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import type { LabdeskDataProvider } from '../../providers/types';
import type { OrderRecord } from '../types';

const AWAITING_DRAW = ['requisition_created', 'requisition_bypassed'];

export const OnSiteDraw = ({ order }: { order: OrderRecord }) => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const mark = useMutation({
    mutationFn: () => dataProvider.markDrawCompleted(order.id),
    onSuccess: () => {
      setOpen(false);
      notify('Draw marked completed', { type: 'success' });
      refresh();
    },
    onError: (error: Error) => notify(error.message || 'Could not mark the draw completed; try again', { type: 'error' }),
  });
  const waiting = order.status === 'received' && AWAITING_DRAW.includes(order.low_level_status ?? '');
  return (
    <Card component="section" aria-label="On-site draw">
      <CardHeader title="On-site draw" subheader="The sample is drawn on site, then sent to the lab" />
      <CardContent sx={{ pt: 0 }}>
        {waiting ? (
          <Button variant="contained" onClick={() => setOpen(true)}>
            Mark draw completed
          </Button>
        ) : (
          <Typography color="text.secondary">
            {order.low_level_status === 'ordered' ? 'Waiting for the requisition: the draw can be marked once it is created.' : `No draw to mark: the order is ${order.status ?? 'unknown'} (${order.low_level_status ?? 'unknown'}).`}
          </Typography>
        )}
        <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="draw-completed-title">
          <DialogTitle id="draw-completed-title">Mark the draw completed?</DialogTitle>
          <DialogContent>
            <DialogContentText>The order moves to the lab (sample with lab). This cannot be undone.</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Not yet</Button>
            <Button variant="contained" disabled={mark.isPending} onClick={() => mark.mutate()}>
              Confirm draw completed
            </Button>
          </DialogActions>
        </Dialog>
      </CardContent>
    </Card>
  );
};

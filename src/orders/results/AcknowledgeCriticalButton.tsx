/**
 * Records that the signed-in coordinator has acted on a critical value (called the patient or the
 * physician). The BFF records who and when and audits it; the first acknowledgement stands.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { HttpError, useDataProvider, useNotify } from 'react-admin';
import type { LabdeskDataProvider } from '../../providers/types';

export const AcknowledgeCriticalButton = ({ orderId, names }: { orderId: string; names: string[] }) => {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const notify = useNotify();
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => dataProvider.acknowledgeCriticalResult(orderId, note.trim() || undefined),
    onSuccess: () => {
      setOpen(false);
      notify('Critical result acknowledged', { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
    onError: (error: unknown) => {
      const message = error instanceof HttpError || error instanceof Error ? error.message : 'the server did not say why';
      notify(`Could not acknowledge: ${message}`, { type: 'error' });
    },
  });
  return (
    <>
      <Button variant="contained" color="error" size="small" onClick={() => setOpen(true)}>
        Acknowledge
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="ack-critical-title" fullWidth maxWidth="sm">
        <DialogTitle id="ack-critical-title">Acknowledge the critical result</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {names.join(', ')}: confirm you have acted on it (for example, called the patient or the ordering physician). Your name and the time are
            recorded.
          </DialogContentText>
          <TextField
            label="What was done (optional)"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            multiline
            minRows={2}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 1000 } }}
            helperText="Kept with the acknowledgement; never sent to the lab"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Not now</Button>
          <Button variant="contained" color="error" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
            Acknowledge
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
};

import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LabdeskDataProvider } from '../../providers/types';

/** Asks why the visit is cancelled (the service's reasons; some are not refundable) and an optional note. */
export const CancelVisitDialog = ({ open, busy, onClose, onCancel }: { open: boolean; busy: boolean; onClose: () => void; onCancel: (reasonId: string, note: string) => void }) => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const reasons = useQuery({ queryKey: ['appointment-cancellation-reasons'], queryFn: () => dataProvider.getCancellationReasons(), enabled: open, staleTime: 5 * 60_000, retry: false });
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="cancel-visit-title" fullWidth maxWidth="xs">
      <DialogTitle id="cancel-visit-title">Cancel the walk-in visit</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            select
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            helperText={reasons.error ? `Could not load the reasons: ${reasons.error.message}. Close and try again.` : reasons.isPending ? 'Loading the reasons…' : 'Required'}
            error={!!reasons.error}
          >
            {(reasons.data ?? []).map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.is_refundable ? r.name : `${r.name} (not refundable)`}
              </MenuItem>
            ))}
          </TextField>
          <TextField label="Note (optional)" value={note} onChange={(e) => setNote(e.target.value)} multiline minRows={2} slotProps={{ htmlInput: { maxLength: 1000 } }} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Keep the visit</Button>
        <Button color="error" variant="contained" disabled={!reason || busy} onClick={() => onCancel(reason, note)}>
          Cancel visit
        </Button>
      </DialogActions>
    </Dialog>
  );
};

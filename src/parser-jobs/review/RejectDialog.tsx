/**
 * Rejecting a report fails the job: nothing of it reaches the patient. The uploader needs to know
 * why (a wrong patient, an unreadable scan), so notes are required.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { REVIEW_NOTES_MAX } from '../types';

interface RejectDialogProps {
  open: boolean;
  busy: boolean;
  error?: string;
  onConfirm: (notes: string) => void;
  onClose: () => void;
}

export const RejectDialog = ({ open, busy, error, onConfirm, onClose }: RejectDialogProps) => {
  const [notes, setNotes] = useState('');
  const [tried, setTried] = useState(false);
  const trimmed = notes.trim();
  const problem = !trimmed ? 'Say why the report is rejected' : notes.length > REVIEW_NOTES_MAX ? `At most ${REVIEW_NOTES_MAX} characters: remove ${notes.length - REVIEW_NOTES_MAX}` : undefined;
  const shown = error ?? (tried ? problem : undefined);
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="reject-title" fullWidth maxWidth="sm">
      <DialogTitle id="reject-title">Reject this report?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          None of its results will be filed. The job fails with your notes, so whoever uploaded it can act on them.
        </DialogContentText>
        <TextField
          label="Why is it rejected?"
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          autoFocus
          required
          error={Boolean(shown)}
          helperText={shown ?? `${notes.length} / ${REVIEW_NOTES_MAX}`}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={busy}
          onClick={() => {
            setTried(true);
            if (!problem) onConfirm(trimmed);
          }}
        >
          Reject report
        </Button>
      </DialogActions>
    </Dialog>
  );
};

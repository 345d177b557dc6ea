/**
 * "Approve these results?" Approval makes the values count for the patient, so it is asked once
 * more, with what the reviewer changed and what is still flagged. Enter (or Ctrl+Enter again)
 * confirms: the confirm button has the focus.
 */
import { useState } from 'react';
import { Alert, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, TextField } from '@mui/material';
import { REVIEW_NOTES_MAX } from '../types';

interface ApproveDialogProps {
  open: boolean;
  results: number;
  changes: number;
  busy: boolean;
  /** What differs between the report and the patient, when it does: approving then needs an explicit confirmation. */
  mismatch: string | null;
  onConfirm: (notes: string, confirmMismatch: boolean) => void;
  onClose: () => void;
}

export const ApproveDialog = ({ open, results, changes, busy, mismatch, onConfirm, onClose }: ApproveDialogProps) => {
  const [notes, setNotes] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  // A confirmation is for the mismatch it was given to, seen this time: opening the dialog again, or
  // a mismatch that changed (the header was corrected again), asks afresh. Reset while rendering,
  // so a stale tick is never shown, not even for one frame.
  const [askedFor, setAskedFor] = useState({ open, mismatch });
  if (askedFor.open !== open || askedFor.mismatch !== mismatch) {
    setAskedFor({ open, mismatch });
    setConfirmed(false);
  }
  const tooLong = notes.length > REVIEW_NOTES_MAX;
  const blocked = mismatch !== null && !confirmed;
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="approve-title" fullWidth maxWidth="xs">
      <DialogTitle id="approve-title">Approve these results?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {`${results} ${results === 1 ? 'result' : 'results'} will be filed for the patient`}
          {changes ? `, with your ${changes} ${changes === 1 ? 'correction' : 'corrections'}.` : ', as read (you changed nothing).'}
        </DialogContentText>
        {mismatch && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {mismatch}
            <FormControlLabel
              sx={{ display: 'flex', mt: 1 }}
              control={<Checkbox checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />}
              label="I have checked: this report belongs to this patient"
            />
          </Alert>
        )}
        <TextField
          label="Notes (optional)"
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          multiline
          minRows={2}
          fullWidth
          error={tooLong}
          helperText={tooLong ? `At most ${REVIEW_NOTES_MAX} characters: remove ${notes.length - REVIEW_NOTES_MAX}` : `${notes.length} / ${REVIEW_NOTES_MAX}`}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Keep reviewing
        </Button>
        <Button variant="contained" color="success" autoFocus={!mismatch} disabled={busy || tooLong || blocked} onClick={() => onConfirm(notes.trim(), mismatch !== null && confirmed)}>
          Approve
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * "Approve these results?" Approval makes the values count for the patient, so it is asked once
 * more, with what the reviewer changed and what is still flagged. Enter (or Ctrl+Enter again)
 * confirms: the confirm button has the focus.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { REVIEW_NOTES_MAX } from '../types';

interface ApproveDialogProps {
  open: boolean;
  results: number;
  changes: number;
  busy: boolean;
  onConfirm: (notes: string) => void;
  onClose: () => void;
}

export const ApproveDialog = ({ open, results, changes, busy, onConfirm, onClose }: ApproveDialogProps) => {
  const [notes, setNotes] = useState('');
  const tooLong = notes.length > REVIEW_NOTES_MAX;
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="approve-title" fullWidth maxWidth="xs">
      <DialogTitle id="approve-title">Approve these results?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {`${results} ${results === 1 ? 'result' : 'results'} will be filed for the patient`}
          {changes ? `, with your ${changes} ${changes === 1 ? 'correction' : 'corrections'}.` : ', as read (you changed nothing).'}
        </DialogContentText>
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
        <Button variant="contained" color="success" autoFocus disabled={busy || tooLong} onClick={() => onConfirm(notes.trim())}>
          Approve
        </Button>
      </DialogActions>
    </Dialog>
  );
};

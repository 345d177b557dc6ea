/**
 * Resolve one order or a selection: an outcome from the fixed list and a note (both required). The
 * caller does the call; a field error it returns is shown on its field.
 */
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { Form, required, SelectInput } from 'react-admin';
import { TRIAGE_NOTE_MAX, TRIAGE_OUTCOME_LABELS, TRIAGE_OUTCOMES, type TriageOutcome } from '../../../server/bff/api/orderTriage';
import { CountedTextInput } from '../../components/CountedTextInput';
import { SubmitButton } from '../scheduling/SubmitButton';

const CHOICES = TRIAGE_OUTCOMES.map((id) => ({ id, name: TRIAGE_OUTCOME_LABELS[id] }));
const EMPTY = {};

export interface ResolveValues {
  outcome: TriageOutcome;
  note: string;
}

export const ResolveDialog = ({
  open,
  title,
  explanation,
  onClose,
  onResolve,
}: {
  open: boolean;
  title: string;
  explanation: string;
  onClose: () => void;
  /** Answers field errors to show, or nothing when done. */
  onResolve: (values: ResolveValues) => Promise<Record<string, string> | undefined>;
}) => (
  <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="resolve-order-title">
    <Form record={EMPTY} onSubmit={(v: Record<string, unknown>) => onResolve({ outcome: v.outcome as TriageOutcome, note: String(v.note ?? '') })} noValidate>
      <DialogTitle id="resolve-order-title">{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {explanation}
        </Typography>
        <SelectInput source="outcome" label="Outcome" choices={CHOICES} validate={required('Choose an outcome')} fullWidth />
        <CountedTextInput source="note" label="Note" max={TRIAGE_NOTE_MAX} validate={required('Say what was done')} helperText="Staff only: never sent to the lab" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Keep open</Button>
        <SubmitButton label="Resolve" icon={<CheckCircleIcon />} />
      </DialogActions>
    </Form>
  </Dialog>
);

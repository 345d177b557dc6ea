/**
 * Reship or recreate a lost kit: it places a new order (and, for recreate, may cancel the original
 * at the service), so it asks first, with a note for the team about why.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { Form, required } from 'react-admin';
import { TRIAGE_NOTE_MAX } from '../../../server/bff/api';
import { CountedTextInput } from '../../components/CountedTextInput';
import { SubmitButton } from '../scheduling/SubmitButton';

const EMPTY = {};
const TEXT = {
  reship: {
    title: 'Reship the kit?',
    explanation: 'A new order is placed for the same test, patient and address under the same lab account, and a new kit is sent.',
    submit: 'Reship kit',
  },
  recreate: {
    title: 'Recreate the order?',
    explanation:
      'A new order is placed for the same test and patient at a freshly chosen lab account. An order that is still open is cancelled at the same time.',
    submit: 'Recreate order',
  },
} as const;

export const ReplaceKitDialog = ({
  action,
  onClose,
  onConfirm,
}: {
  action: 'reship' | 'recreate' | null;
  onClose: () => void;
  onConfirm: (action: 'reship' | 'recreate', note: string) => Promise<Record<string, string> | undefined>;
}) => {
  const text = TEXT[action ?? 'reship'];
  return (
    <Dialog open={action !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="replace-kit-title">
      <Form record={EMPTY} onSubmit={(v: Record<string, unknown>) => (action ? onConfirm(action, String(v.note ?? '')) : Promise.resolve(undefined))} noValidate>
        <DialogTitle id="replace-kit-title">{text.title}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {text.explanation} This order is then resolved and leaves the queue.
          </Typography>
          <CountedTextInput source="note" label="Note" max={TRIAGE_NOTE_MAX} validate={required('Say why')} helperText="Staff only: never sent to the lab" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Keep as is</Button>
          <SubmitButton label={text.submit} icon={<LocalShippingIcon />} />
        </DialogActions>
      </Form>
    </Dialog>
  );
};

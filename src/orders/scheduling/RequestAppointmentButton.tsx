/**
 * "Request an appointment": for another address than the order's, or when no slot suits. The
 * provider gets the address and notes and proposes a time later (the appointment has none until
 * then). The address starts as the order's, access notes included, and can be edited.
 */
import { useMemo, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import AddLocationAltIcon from '@mui/icons-material/AddLocationAlt';
import { Form, required, SelectInput, useDataProvider, useNotify } from 'react-admin';
import { CountedTextInput } from '../../components/CountedTextInput';
import { choicesOf } from '../../components/labLabels';
import { PROVIDER_NAMES } from '../../components/AppointmentStatusChip';
import type { LabdeskDataProvider } from '../../providers/types';
import type { AddressLike } from '../../components/AddressBlock';
import type { RequestBody } from '../../appointments/types';
import { NOTES_MAX } from '../choices';
import { AddressInputs } from '../form/AddressInputs';
import { toAddressBody } from './addressBody';
import { bookingProblemOf, splitFieldErrors } from './bookingProblems';
import { SubmitButton } from './SubmitButton';
import { useAppointmentChanged } from './useAppointmentChanged';

// Inputs are named by the body's paths, so the BFF's 422 `errors` (`address.zip_code`, ...) land on them.
const FIELDS = [
  'address.first_line',
  'address.second_line',
  'address.city',
  'address.state',
  'address.zip_code',
  'address.access_notes',
  'provider',
  'appointment_notes',
] as const;

interface RequestFormValues {
  address?: Record<string, unknown>;
  provider?: string;
  appointment_notes?: string | null;
}

export function toRequestBody(values: RequestFormValues): RequestBody {
  const body: RequestBody = { address: toAddressBody(values.address), provider: String(values.provider ?? '') };
  if (typeof values.appointment_notes === 'string' && values.appointment_notes.trim()) body.appointment_notes = values.appointment_notes;
  return body;
}

export const RequestAppointmentButton = ({ orderId, orderAddress }: { orderId: string; orderAddress: AddressLike | null | undefined }) => {
  const [open, setOpen] = useState(false);
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const changed = useAppointmentChanged();
  const record = useMemo(() => ({ address: toAddressBody(orderAddress), provider: '', appointment_notes: '' }), [orderAddress]);

  const submit = async (values: Record<string, unknown>) => {
    try {
      await dataProvider.requestAppointment(orderId, toRequestBody(values as RequestFormValues));
      await changed();
      setOpen(false);
      notify('Appointment requested: the provider will propose a time', { type: 'success' });
      return undefined;
    } catch (error) {
      const problem = bookingProblemOf(error);
      if (problem.kind === 'invalid') {
        const { onFields, elsewhere } = splitFieldErrors(problem.errors, FIELDS);
        notify(elsewhere.length ? `${problem.message} (${elsewhere.join('; ')})` : `Check the highlighted fields. ${problem.message}`, { type: 'error' });
        return onFields;
      }
      notify(`Could not request an appointment: ${problem.message}`, { type: 'error' });
      if (problem.kind === 'has_appointment') await changed();
      return undefined;
    }
  };

  return (
    <>
      <Button variant="outlined" startIcon={<AddLocationAltIcon />} onClick={() => setOpen(true)}>
        Request an appointment
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="md" aria-labelledby="request-appointment-title">
        <Form record={record} onSubmit={submit} noValidate>
          <DialogTitle id="request-appointment-title">Request an appointment</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              The provider receives the address and notes and proposes a time; the appointment stays pending until then.
              The address starts as the patient&apos;s address on the order: change it for a draw elsewhere.
            </Typography>
            <AddressInputs source="address" withSecondLine zipKey="zip_code" />
            <CountedTextInput
              source="address.access_notes"
              label="Access notes"
              max={NOTES_MAX}
              helperText="Gate codes, parking, entrance directions; passed to the phlebotomist"
            />
            <SelectInput source="provider" label="Provider" choices={choicesOf(PROVIDER_NAMES)} validate={required('Choose a provider')} fullWidth />
            <CountedTextInput source="appointment_notes" label="Appointment notes" max={NOTES_MAX} helperText="For the provider: preferred days or times, anything else" />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Close</Button>
            <SubmitButton label="Send request" icon={<AddLocationAltIcon />} />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};

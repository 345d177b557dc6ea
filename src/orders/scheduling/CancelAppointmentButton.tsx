/**
 * Cancels an appointment, pessimistically, with one of the service's cancellation reasons (some
 * are not refundable: the list says which) and optional notes for the provider.
 */
import { useMemo, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import { useQuery } from '@tanstack/react-query';
import { Form, required, SelectInput, useDataProvider, useNotify } from 'react-admin';
import { CountedTextInput } from '../../components/CountedTextInput';
import type { LabdeskDataProvider } from '../../providers/types';
import type { AppointmentRecord, CancelBody } from '../../appointments/types';
import { NOTES_MAX } from '../choices';
import { bookingProblemOf, splitFieldErrors } from './bookingProblems';
import { SubmitButton } from './SubmitButton';
import { useAppointmentChanged } from './useAppointmentChanged';

const FIELDS = ['cancellation_reason_id', 'notes'] as const;
const EMPTY = {};

function useCancellationReasons(enabled: boolean) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  return useQuery({
    queryKey: ['appointment-cancellation-reasons'],
    queryFn: () => dataProvider.getCancellationReasons(),
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export const CancelAppointmentButton = ({ appointment }: { appointment: AppointmentRecord }) => {
  const [open, setOpen] = useState(false);
  const reasons = useCancellationReasons(open);
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const changed = useAppointmentChanged();
  const choices = useMemo(
    () => (reasons.data ?? []).map((r) => ({ id: r.id, name: r.is_refundable ? r.name : `${r.name} (not refundable)` })),
    [reasons.data],
  );

  const submit = async (values: Record<string, unknown>) => {
    const body: CancelBody = { cancellation_reason_id: String(values.cancellation_reason_id ?? '') };
    if (typeof values.notes === 'string' && values.notes.trim()) body.notes = values.notes;
    try {
      await dataProvider.cancelAppointment(appointment.id, body);
      await changed();
      setOpen(false);
      notify('Appointment cancelled', { type: 'success' });
      return undefined;
    } catch (error) {
      const problem = bookingProblemOf(error);
      if (problem.kind === 'invalid') {
        const { onFields, elsewhere } = splitFieldErrors(problem.errors, FIELDS);
        notify(elsewhere.length ? `${problem.message} (${elsewhere.join('; ')})` : `Check the highlighted fields. ${problem.message}`, { type: 'error' });
        return onFields;
      }
      notify(`Could not cancel the appointment: ${problem.message}`, { type: 'error' });
      await changed();
      return undefined;
    }
  };

  return (
    <>
      <Button variant="outlined" color="error" startIcon={<EventBusyIcon />} onClick={() => setOpen(true)}>
        Cancel appointment
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="cancel-appointment-title">
        <Form record={EMPTY} onSubmit={submit} noValidate>
          <DialogTitle id="cancel-appointment-title">Cancel this appointment?</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              The provider is told and the time is released. The order stays open: a new draw can be booked afterwards.
            </Typography>
            {reasons.isError && (
              <Typography color="error" variant="body2" sx={{ mb: 1 }}>
                Could not load the cancellation reasons: {reasons.error instanceof Error ? reasons.error.message : 'no answer'}
              </Typography>
            )}
            <Box>
              <SelectInput
                source="cancellation_reason_id"
                label="Reason"
                choices={choices}
                isPending={reasons.isPending}
                validate={required('Choose a reason')}
                fullWidth
              />
              <CountedTextInput source="notes" label="Notes (optional)" max={NOTES_MAX} helperText="Passed to the provider with the cancellation" />
            </Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Keep appointment</Button>
            <SubmitButton label="Cancel appointment" color="error" icon={<EventBusyIcon />} />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};

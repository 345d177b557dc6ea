/**
 * The form under the calendar: the chosen slot, appointment notes (with a live counter) and, when
 * booking, the asynchronous confirmation options. The submit button stays disabled while the
 * call is in flight, so a double click never books twice.
 */
import { useMemo } from 'react';
import { Box } from '@mui/material';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import { Form } from 'react-admin';
import { CountedTextInput } from '../../components/CountedTextInput';
import type { AddressLike } from '../../components/AddressBlock';
import { NOTES_MAX } from '../choices';
import type { Slot } from '../../appointments/types';
import { AsyncConfirmationInputs } from './AsyncConfirmationInputs';
import { BOOKING_DEFAULTS, type BookingFormValues } from './bookingBody';
import { SlotSummary } from './SlotSummary';
import { SubmitButton } from './SubmitButton';

export interface BookingFormProps {
  slot: Slot | null;
  timeZone: string;
  address?: AddressLike | null;
  mode: 'book' | 'reschedule';
  /** Notes to start from (a reschedule keeps the appointment's notes unless changed). */
  initialNotes?: string | null;
  /** Answers field errors for the form to show, or nothing. */
  onSubmit: (values: BookingFormValues) => Promise<Record<string, string> | undefined>;
  /** Holds the button (not the inputs: what is typed stays) while the slots are being refreshed. */
  disabled?: boolean;
}

export const BookingForm = ({ slot, timeZone, address, mode, initialNotes, onSubmit, disabled = false }: BookingFormProps) => {
  // Created once: a new record would reset what the user typed whenever the slots refresh.
  const record = useMemo(() => ({ ...BOOKING_DEFAULTS, appointment_notes: initialNotes ?? '' }), [initialNotes]);
  return (
    <Form record={record} onSubmit={(values: Record<string, unknown>) => onSubmit(values as BookingFormValues)} noValidate>
      <Box sx={{ mt: 2, maxWidth: 720 }}>
        <SlotSummary slot={slot} timeZone={timeZone} address={address} />
        <CountedTextInput
          source="appointment_notes"
          label="Appointment notes"
          max={NOTES_MAX}
          helperText="For the phlebotomist: sent to the provider with the booking"
        />
        {mode === 'book' && <AsyncConfirmationInputs />}
        <Box sx={{ mt: 1 }}>
          <SubmitButton label={mode === 'book' ? 'Book' : 'Reschedule to this time'} icon={<EventAvailableIcon />} disabled={disabled || !slot} />
        </Box>
      </Box>
    </Form>
  );
};

/**
 * Moves an appointment to another slot at its own address. Disabled when the service says the
 * appointment cannot be moved (`can_reschedule` false); AppointmentActions says why under it.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import { AWAITING_PROVIDER_STATUSES } from '../../components/AppointmentStatusChip';
import type { AppointmentRecord } from '../../appointments/types';
import { toAddressBody } from './addressBody';
import { SlotBooking } from './SlotBooking';

export function rescheduleBlockedReason(appointment: AppointmentRecord): string | null {
  if (appointment.can_reschedule) return null;
  if (AWAITING_PROVIDER_STATUSES.includes(appointment.status)) {
    return 'it cannot be moved while the provider has not confirmed it. Wait for the confirmation, or cancel it.';
  }
  return 'the provider does not allow moving this appointment. Cancel it and book another time instead.';
}

export const RescheduleButton = ({ appointment }: { appointment: AppointmentRecord }) => {
  const [open, setOpen] = useState(false);
  const blocked = rescheduleBlockedReason(appointment);
  return (
    <>
      <Button variant="outlined" startIcon={<EventRepeatIcon />} disabled={blocked !== null} onClick={() => setOpen(true)}>
        Reschedule
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="lg" aria-labelledby="reschedule-title">
        <DialogTitle id="reschedule-title">Reschedule the draw</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Slots for the appointment&apos;s own address. The current time stays booked until the new one is confirmed.
          </Typography>
          {open && (
            <SlotBooking
              orderId={appointment.id}
              address={toAddressBody(appointment.address)}
              mode="reschedule"
              canBook
              initialNotes={appointment.appointment_notes}
              currentStart={appointment.start_at}
              onDone={() => setOpen(false)}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
};

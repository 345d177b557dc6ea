import { Stack, Typography } from '@mui/material';
import { usePermissions } from 'react-admin';
import { can } from '../../auth/permissions';
import { CHANGEABLE_APPOINTMENT_STATUSES } from '../../components/AppointmentStatusChip';
import type { AppointmentRecord } from '../../appointments/types';
import { CancelAppointmentButton } from './CancelAppointmentButton';
import { rescheduleBlockedReason, RescheduleButton } from './RescheduleButton';

/**
 * Reschedule and Cancel, the same on the order page and the appointment page. Only for those who
 * may write appointments, and only while the appointment holds or waits for a slot.
 */
export const AppointmentActions = ({ appointment }: { appointment: AppointmentRecord | undefined }) => {
  const { permissions } = usePermissions();
  if (!appointment || !can(permissions, 'appointments:write') || !CHANGEABLE_APPOINTMENT_STATUSES.includes(appointment.status)) return null;
  const blocked = rescheduleBlockedReason(appointment);
  return (
    <Stack spacing={0.5} aria-label="Appointment actions" role="group">
      <Stack direction="row" spacing={1}>
        <RescheduleButton appointment={appointment} />
        <CancelAppointmentButton appointment={appointment} />
      </Stack>
      {blocked && (
        <Typography variant="caption" color="text.secondary" data-testid="reschedule-blocked">
          {`Reschedule is not available: ${blocked}`}
        </Typography>
      )}
    </Stack>
  );
};

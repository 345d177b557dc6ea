/**
 * A booking the provider has not answered yet: how long we have waited out of how long the
 * provider has (the async timeout the booking was made with, from its first event), and what
 * happens at the end. And, once it has ended while the page was open, how it ended.
 */
import { Alert, AlertTitle, Box } from '@mui/material';
import { ElapsedProgress, formatDuration } from '../../components/ElapsedProgress';
import { providerName } from '../../components/AppointmentStatusChip';
import type { AppointmentRecord } from '../../appointments/types';
import { asyncTimeoutOf, cancellationReasonOf, isAwaitingProvider, isRequest, REQUEST_POLL_MS, waitingSince } from './appointmentState';
import type { WaitOutcome } from './useOrderAppointment';

export const AwaitingProvider = ({ appointment }: { appointment: AppointmentRecord | undefined }) => {
  if (!isAwaitingProvider(appointment)) return null;
  const provider = providerName(appointment.provider) || 'the provider';
  if (isRequest(appointment)) {
    return (
      <Alert severity="info" sx={{ mb: 2 }}>
        {`Requested from ${provider}: waiting for the provider to propose a time. This page checks again every ${REQUEST_POLL_MS / 1000} seconds.`}
      </Alert>
    );
  }
  const total = asyncTimeoutOf(appointment);
  return (
    <Alert severity="info" icon={false} sx={{ mb: 2 }} data-testid="awaiting-provider">
      <AlertTitle>{`Waiting for ${provider} to confirm`}</AlertTitle>
      {total
        ? `Nothing is confirmed yet. If ${provider} has not confirmed within ${formatDuration(total)}, the booking is cancelled and the time is released. This page updates by itself.`
        : 'Nothing is confirmed yet. This page updates by itself.'}
      <Box sx={{ mt: 1, minWidth: 280 }}>
        <ElapsedProgress since={waitingSince(appointment)} totalMs={total} label="Waiting for the provider to confirm" />
      </Box>
    </Alert>
  );
};

export const WaitOutcomeAlert = ({ outcome }: { outcome: WaitOutcome | null }) => {
  if (!outcome) return null;
  const provider = providerName(outcome.appointment.provider) || 'The provider';
  if (outcome.status === 'confirmed') {
    return (
      <Alert severity="success" sx={{ mb: 2 }}>
        {`${provider} confirmed the appointment.`}
      </Alert>
    );
  }
  if (outcome.status === 'cancelled') {
    const reason = cancellationReasonOf(outcome.appointment);
    return (
      <Alert severity="error" sx={{ mb: 2 }}>
        {`The booking was cancelled before it was confirmed${reason ? `: ${reason}` : ''}. Nothing is booked for this order; book another time.`}
      </Alert>
    );
  }
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      {`The appointment is now ${outcome.status}.`}
    </Alert>
  );
};

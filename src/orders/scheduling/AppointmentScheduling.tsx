/**
 * The order page's at-home draw section (orders collected by at-home phlebotomy only): the current
 * appointment with its actions, or, when there is none (or it was cancelled), booking a new one.
 */
import { Alert, Button, Card, CardContent, CardHeader, Divider, LinearProgress, Stack, Typography } from '@mui/material';
import { usePermissions } from 'react-admin';
import { can } from '../../auth/permissions';
import type { OrderRecord } from '../types';
import { isFinal } from '../CancelOrderButton';
import { AppointmentActions } from './AppointmentActions';
import { AppointmentDetails } from './AppointmentDetails';
import { canBookAnother } from './appointmentState';
import { AwaitingProvider, WaitOutcomeAlert } from './AwaitingProvider';
import { BookDraw } from './BookDraw';
import { useOrderAppointment } from './useOrderAppointment';

export const AT_HOME_PHLEBOTOMY = 'at_home_phlebotomy';

const SchedulingCard = ({ order }: { order: OrderRecord }) => {
  const { permissions } = usePermissions();
  const { appointment, isPending, error, refetch, outcome } = useOrderAppointment(order.id);
  const canWrite = can(permissions, 'appointments:write');
  const bookable = !isPending && !error && canBookAnother(appointment);
  return (
    <Card component="section" aria-label="At-home draw">
      <CardHeader title="At-home draw" subheader="A phlebotomist visits the patient to draw blood" />
      <CardContent sx={{ pt: 0 }}>
        {isPending && <LinearProgress aria-label="Loading the appointment" />}
        {error && (
          <Alert severity="error" action={<Button onClick={() => void refetch()}>Try again</Button>}>
            Could not load the appointment: {error.message}
          </Alert>
        )}
        <WaitOutcomeAlert outcome={outcome} />
        {appointment && (
          <Stack spacing={2} component="section" aria-label="Current appointment">
            <Typography variant="h6" component="h3">
              {appointment.status === 'cancelled' ? 'Last appointment (cancelled)' : 'Current appointment'}
            </Typography>
            <AwaitingProvider appointment={appointment} />
            <AppointmentDetails appointment={appointment} />
            <AppointmentActions appointment={appointment} />
          </Stack>
        )}
        {bookable && appointment && <Divider sx={{ my: 3 }} />}
        {bookable &&
          (isFinal(order) ? (
            <Typography color="text.secondary">{`The order is ${order.status ?? 'closed'}: no draw can be booked for it.`}</Typography>
          ) : (
            <BookDraw order={order} canBook={canWrite} />
          ))}
      </CardContent>
    </Card>
  );
};

export const AppointmentScheduling = ({ order }: { order: OrderRecord }) => {
  const { permissions } = usePermissions();
  if (order.details?.type !== AT_HOME_PHLEBOTOMY || !can(permissions, 'appointments:read')) return null;
  return <SchedulingCard order={order} />;
};

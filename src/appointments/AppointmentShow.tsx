/**
 * One appointment (its record id is its order's id): the details, the events, the address with its
 * access notes, a link to the order, and the same Reschedule and Cancel actions as the order page.
 * While the provider has not answered, the page reads the appointment again every 2 s.
 */
import { Card, CardContent, CardHeader, Grid, Stack, Typography } from '@mui/material';
import { Link, Show, TopToolbar, useCreatePath, useRecordContext, WithRecord } from 'react-admin';
import { OrderStatusChip } from '../components/OrderStatusChip';
import { AppointmentActions } from '../orders/scheduling/AppointmentActions';
import { AppointmentDetails } from '../orders/scheduling/AppointmentDetails';
import { pollInterval } from '../orders/scheduling/appointmentState';
import { AwaitingProvider, WaitOutcomeAlert } from '../orders/scheduling/AwaitingProvider';
import { useAppointmentPolling } from '../orders/scheduling/useOrderAppointment';
import type { AppointmentRecord } from './types';

const AppointmentTitle = () => {
  const record = useRecordContext<AppointmentRecord>();
  if (!record) return null;
  return <span>{`Appointment${record.order?.patient_name ? ` for ${record.order.patient_name}` : ''}`}</span>;
};

const Actions = () => {
  const record = useRecordContext<AppointmentRecord>();
  return (
    <TopToolbar>
      <AppointmentActions appointment={record} />
    </TopToolbar>
  );
};

const OrderCard = ({ record }: { record: AppointmentRecord }) => {
  const createPath = useCreatePath();
  const orderId = record.order?.id ?? record.order_id ?? record.id;
  return (
    <Card component="section" aria-label="Order">
      <CardHeader title="Order" />
      <CardContent sx={{ pt: 0 }}>
        <Stack spacing={1}>
          <Link to={createPath({ resource: 'orders', id: orderId, type: 'show' })}>{`Open order ${orderId}`}</Link>
          <Typography variant="body2">{record.order?.patient_name || 'Patient name not given'}</Typography>
          {record.order && (
            <Stack direction="row" spacing={1}>
              <OrderStatusChip value={record.order.status} level="top" size="small" />
              <OrderStatusChip value={record.order.low_level_status} size="small" />
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
};

const Body = ({ record }: { record: AppointmentRecord }) => {
  const outcome = useAppointmentPolling(record);
  return (
    <Grid container spacing={2} sx={{ mt: 1 }}>
      <Grid size={{ xs: 12, md: 8 }}>
        <Card component="section" aria-label="Appointment">
          <CardHeader title="Appointment" subheader={`Service id ${record.appointment_id ?? ''}`} />
          <CardContent sx={{ pt: 0 }}>
            <WaitOutcomeAlert outcome={outcome} />
            <AwaitingProvider appointment={record} />
            <AppointmentDetails appointment={record} />
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <OrderCard record={record} />
      </Grid>
    </Grid>
  );
};

export const AppointmentShow = () => (
  <Show<AppointmentRecord>
    title={<AppointmentTitle />}
    actions={<Actions />}
    component="div"
    queryOptions={{ refetchInterval: (query) => pollInterval(query.state.data as AppointmentRecord | undefined) }}
  >
    <WithRecord<AppointmentRecord> render={(record) => <Body record={record} />} />
  </Show>
);

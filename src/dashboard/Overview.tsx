/**
 * react-admin's dashboard: "What needs you", the queues of the signed-in member's role with counts
 * that open the filtered lists. The BFF answers only the queues the role may see; a card shows for
 * each key it answered. Refreshed every 30 s with the age of the counts on screen.
 */
import { Alert, Box, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { AppointmentRequestsCard } from './AppointmentRequestsCard';
import { CriticalResultsCard } from './CriticalResultsCard';
import { FailedWebhooksCard } from './FailedWebhooksCard';
import { OrdersAttentionCard } from './OrdersAttentionCard';
import { ReviewQueueCard } from './ReviewQueueCard';
import { UpcomingAppointmentsCard } from './UpcomingAppointmentsCard';
import { UpdatedAgo } from './UpdatedAgo';
import { useOverview } from './useOverview';

export const Overview = () => {
  const { data, error, dataUpdatedAt } = useOverview();
  const cards = data && [
    data.critical_results_unacknowledged && <CriticalResultsCard key="critical" queue={data.critical_results_unacknowledged} />,
    data.orders_needing_attention && <OrdersAttentionCard key="orders" queue={data.orders_needing_attention} />,
    data.reports_awaiting_review && <ReviewQueueCard key="reports" queue={data.reports_awaiting_review} />,
    data.appointment_requests_waiting && <AppointmentRequestsCard key="requests" queue={data.appointment_requests_waiting} />,
    data.appointments_upcoming && <UpcomingAppointmentsCard key="upcoming" days={data.appointments_upcoming} />,
    data.failed_webhook_deliveries && <FailedWebhooksCard key="webhooks" queue={data.failed_webhook_deliveries} />,
  ].filter(Boolean);
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Overview" />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline', mb: 2 }}>
        <Typography variant="h5" component="h1">
          What needs you
        </Typography>
        {data && <UpdatedAgo at={dataUpdatedAt} />}
      </Stack>
      {error && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {data ? 'The counts below could not be refreshed' : 'The overview could not be loaded'}: {error.message}. It tries again every 30
          seconds; if this stays, check your connection or reload the page.
        </Alert>
      )}
      {!data && !error && <Typography color="text.secondary">Counting what waits…</Typography>}
      {cards && cards.length === 0 && (
        <Typography color="text.secondary">Nothing here waits for your role. Open a list from the menu to start.</Typography>
      )}
      {cards && cards.length > 0 && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>{cards}</Box>
      )}
    </Box>
  );
};

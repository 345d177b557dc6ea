/**
 * react-admin's dashboard: "What needs you", the queues of the signed-in member's role with counts
 * that open the filtered lists. The BFF answers only the queues the role may see; a card shows for
 * each key it answered; a queue the BFF could not count shows why, with "Try again", beside the others.
 * Refreshed every 30 s with the age of the counts on screen.
 */
import { Alert, Box, Stack, Typography } from '@mui/material';
import { Fragment, type ReactNode } from 'react';
import { Title } from 'react-admin';
import { isQueueError, type Overview as OverviewAnswer, type OverviewQueueError } from '../../server/bff/api/overview';
import { AppointmentRequestsCard } from './AppointmentRequestsCard';
import { CriticalResultsCard } from './CriticalResultsCard';
import { FailedWebhooksCard } from './FailedWebhooksCard';
import { OrdersAttentionCard } from './OrdersAttentionCard';
import { QueueErrorCard } from './QueueErrorCard';
import { QUEUE_TITLES, type QueueKey } from './queueTitles';
import { ReviewQueueCard } from './ReviewQueueCard';
import { UpcomingAppointmentsCard } from './UpcomingAppointmentsCard';
import { UpdatedAgo } from './UpdatedAgo';
import { useOverview } from './useOverview';

export const Overview = () => {
  const { data, error, dataUpdatedAt, refetch, isFetching } = useOverview();
  /** A queue's card, or, when its count could not be read, why and a button that asks again. */
  const card = <K extends QueueKey>(key: K, render: (queue: Exclude<NonNullable<OverviewAnswer[K]>, OverviewQueueError>) => ReactNode) => {
    const queue = data?.[key];
    if (!queue) return null;
    if (isQueueError(queue)) {
      return <QueueErrorCard key={key} title={QUEUE_TITLES[key]} error={queue.error} onRetry={() => void refetch()} retrying={isFetching} />;
    }
    return <Fragment key={key}>{render(queue as Exclude<NonNullable<OverviewAnswer[K]>, OverviewQueueError>)}</Fragment>;
  };
  const cards =
    data &&
    [
      card('critical_results_unacknowledged', (q) => <CriticalResultsCard queue={q} />),
      card('orders_needing_attention', (q) => <OrdersAttentionCard queue={q} />),
      card('reports_awaiting_review', (q) => <ReviewQueueCard queue={q} />),
      card('appointment_requests_waiting', (q) => <AppointmentRequestsCard queue={q} />),
      card('appointments_upcoming', (q) => <UpcomingAppointmentsCard days={q} />),
      card('failed_webhook_deliveries', (q) => <FailedWebhooksCard queue={q} />),
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

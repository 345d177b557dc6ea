/**
 * An order's events as a vertical stepper, oldest first (MUI core; @mui/lab's Timeline is not a
 * dependency). Event statuses are `<top>.<method>.<low>`; unknown ones show raw.
 */
import { Card, CardContent, CardHeader, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { viewerTimeZone } from '../components/LocalTimeLabel';
import { ORDER_LOW_LEVEL_STATUSES, OrderStatusChip, parseEventStatus } from '../components/OrderStatusChip';
import type { OrderRecord } from './types';

export const formatInstant = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

const isProblem = (low: string) => {
  const color = Object.hasOwn(ORDER_LOW_LEVEL_STATUSES, low) ? ORDER_LOW_LEVEL_STATUSES[low]!.color : undefined;
  return color === 'error' || color === 'warning';
};

export const OrderTimeline = () => {
  const record = useRecordContext<OrderRecord>();
  if (!record) return null;
  const events = [...(record.events ?? [])].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
  return (
    <Card component="section" aria-label="Order timeline">
      <CardHeader title="Timeline" subheader={`Times in your local time zone (${viewerTimeZone()})`} />
      <CardContent sx={{ pt: 0 }}>
        {events.length === 0 ? (
          <Typography color="text.secondary">No events yet.</Typography>
        ) : (
          <Stepper orientation="vertical" activeStep={events.length - 1} component="ol" aria-label="Order events" sx={{ pl: 0 }}>
            {events.map((event, index) => {
              const parsed = parseEventStatus(event.status);
              const low = parsed?.low ?? event.status;
              const last = index === events.length - 1;
              return (
                <Step key={event.id} completed={!last} component="li" sx={{ listStyle: 'none' }}>
                  <StepLabel
                    error={isProblem(low)}
                    optional={
                      <Typography variant="caption" color="text.secondary" component="time" dateTime={event.created_at}>
                        {formatInstant(event.created_at)}
                      </Typography>
                    }
                  >
                    <span title={event.status}>
                      <OrderStatusChip value={low} size="small" />
                    </span>
                  </StepLabel>
                </Step>
              );
            })}
          </Stepper>
        )}
      </CardContent>
    </Card>
  );
};

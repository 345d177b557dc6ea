/**
 * The order page's walk-in section (walk_in_test orders): the booked visit with reschedule and
 * cancel, or, without an active visit, the nearest centers of the order's lab → a center's slots
 * in its own zone → book.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Divider, LinearProgress, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, usePermissions, useRefresh } from 'react-admin';
import type { WalkInSlot } from '../../../server/bff/api';
import { can } from '../../auth/permissions';
import { AppointmentStatusChip } from '../../components/AppointmentStatusChip';
import { ZonedDateTime } from '../../components/ZonedDateTime';
import type { LabdeskDataProvider } from '../../providers/types';
import { isFinal } from '../CancelOrderButton';
import type { OrderRecord } from '../types';
import { CancelVisitDialog } from './CancelVisitDialog';
import { CenterList } from './CenterList';
import { CenterSlots } from './CenterSlots';
import { NoCentersNearby } from './NoCentersNearby';
import { useWalkIn } from './useWalkIn';

const ACTIVE = ['confirmed', 'pending', 'reserved'];

export const WalkInVisitCard = ({ order }: { order: OrderRecord }) => {
  const { permissions } = usePermissions();
  const canWrite = can(permissions, 'appointments:write');
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  // Left undefined, the BFF's default radius; widened only when nothing is that near.
  const [radius, setRadius] = useState<string | undefined>(undefined);
  const { visit, centers } = useWalkIn(order.id, radius);
  const [chosen, setChosen] = useState<string | null>(null);
  const [rescheduling, setRescheduling] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const current = visit.data?.visit ?? null;
  const active = current && ACTIVE.includes(current.status) ? current : null;

  const done = (message: string) => {
    notify(message, { type: 'success' });
    setChosen(null);
    setRescheduling(false);
    setCancelling(false);
    // The order's status follows the visit: reread the page.
    refresh();
  };
  const failed = (error: Error) => notify(error.message || 'The change failed; try again', { type: 'error' });
  const book = useMutation({
    mutationFn: (slot: WalkInSlot) => (active ? dataProvider.rescheduleWalkIn(order.id, slot.booking_key) : dataProvider.bookWalkIn(order.id, slot.booking_key)),
    onSuccess: () => done(active ? 'Visit moved' : 'Visit booked'),
    onError: failed,
  });
  const cancel = useMutation({
    mutationFn: ({ reason, note }: { reason: string; note: string }) => dataProvider.cancelWalkIn(order.id, { cancellation_reason_id: reason, note: note || null }),
    onSuccess: () => done('Visit cancelled'),
    onError: failed,
  });

  const center = centers.data?.centers.find((c) => c.site_code === chosen) ?? null;
  const picking = canWrite && !isFinal(order) && (!active || rescheduling);
  const where = (current?.event_data?.center_name as string | undefined) ?? current?.address.first_line;

  return (
    <Card component="section" aria-label="Walk-in visit">
      <CardHeader title="Walk-in visit" subheader="The patient has blood drawn at one of the lab's patient service centers" />
      <CardContent sx={{ pt: 0 }}>
        {visit.isPending && <LinearProgress aria-label="Loading the visit" />}
        {visit.error && (
          <Alert severity="error" action={<Button onClick={() => void visit.refetch()}>Try again</Button>}>
            Could not load the visit: {visit.error.message}
          </Alert>
        )}
        {current && (
          <Stack spacing={1} component="section" aria-label="Booked visit" sx={{ mb: 2 }}>
            <Typography variant="h6" component="h3">
              {active ? 'Booked visit' : `Last visit (${current.status})`}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <AppointmentStatusChip value={current.status} />
              <Typography variant="body1">{where}</Typography>
            </Box>
            <Typography variant="body2" color="text.secondary">{`${current.address.first_line}, ${current.address.city}, ${current.address.state} ${current.address.zip_code}`}</Typography>
            <ZonedDateTime value={current.start_at} timeZone={current.iana_timezone} />
            {active && canWrite && (
              <Stack direction="row" spacing={1}>
                <Button variant="outlined" onClick={() => setRescheduling((r) => !r)}>
                  {rescheduling ? 'Keep this time' : 'Reschedule'}
                </Button>
                {/* Not while a move is under way: its answer would close the dialog. */}
                <Button color="error" variant="outlined" disabled={book.isPending} onClick={() => setCancelling(true)}>
                  Cancel visit
                </Button>
              </Stack>
            )}
          </Stack>
        )}
        {active === null && isFinal(order) && <Typography color="text.secondary">{`The order is ${order.status ?? 'closed'}: no visit can be booked for it.`}</Typography>}
        {active === null && !canWrite && !isFinal(order) && <Typography color="text.secondary">No visit booked yet. A care coordinator books it.</Typography>}
        {picking && !visit.isPending && (
          <>
            {current && <Divider sx={{ my: 2 }} />}
            <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
              {active ? 'Choose a new time' : 'Nearest centers'}
            </Typography>
            {centers.isPending && <LinearProgress aria-label="Loading the nearest centers" />}
            {centers.error && (
              <Alert severity="error" action={<Button onClick={() => void centers.refetch()}>Try again</Button>}>
                Could not load the centers: {centers.error.message}
              </Alert>
            )}
            {centers.data && centers.data.centers.length === 0 && <NoCentersNearby lab={centers.data.lab} radius={centers.data.radius} onWiden={setRadius} />}
            {centers.data && centers.data.centers.length > 0 && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{`Within ${centers.data.radius} miles of the patient's address, nearest first`}</Typography>
            )}
            {centers.data && centers.data.centers.length > 0 && <CenterList centers={centers.data.centers} chosen={chosen} current={(active?.event_data?.site_code as string | undefined) ?? null} onChoose={setChosen} />}
            {center && (
              <Box sx={{ mt: 2 }}>
                <CenterSlots orderId={order.id} center={center} actionLabel={active ? 'Move to' : 'Book'} busy={book.isPending} onPick={(slot) => book.mutate(slot)} />
              </Box>
            )}
          </>
        )}
        <CancelVisitDialog open={cancelling} busy={cancel.isPending} onClose={() => setCancelling(false)} onCancel={(reason, note) => cancel.mutate({ reason, note })} />
      </CardContent>
    </Card>
  );
};

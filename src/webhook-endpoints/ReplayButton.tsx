/**
 * Sends a delivery again (same event id, a new round of attempts). The service refuses (409) while
 * it is still pending or the endpoint is disabled; the message says which.
 */
import ReplayIcon from '@mui/icons-material/Replay';
import { useMutation } from '@tanstack/react-query';
import { Button, useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import type { LabdeskDataProvider } from '../providers/types';
import type { WebhookDeliveryRecord } from './types';

export const ReplayButton = () => {
  const delivery = useRecordContext<WebhookDeliveryRecord>();
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const replay = useMutation({
    mutationFn: (d: WebhookDeliveryRecord) => dataProvider.replayWebhookDelivery(d.endpoint_id, d.id),
    onSuccess: () => {
      notify('Delivery queued again', { type: 'success' });
      refresh();
    },
    onError: (error: unknown) => notify(`Not replayed: ${error instanceof Error ? error.message : 'the server did not say why'}`, { type: 'error' }),
  });
  if (!delivery) return null;
  return (
    <Button
      label="Replay"
      aria-label={`Replay ${delivery.event_type} delivery`}
      onClick={(e) => {
        e.stopPropagation(); // the row itself expands the attempts
        replay.mutate(delivery);
      }}
      disabled={replay.isPending || delivery.status === 'pending'}
    >
      <ReplayIcon />
    </Button>
  );
};

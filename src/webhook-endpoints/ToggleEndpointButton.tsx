/**
 * Disables an endpoint (its pending deliveries are cancelled, so this asks first) or enables it
 * again. Pessimistic: the chip changes once the service agreed.
 */
import { useState } from 'react';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import { Button, Confirm, useNotify, useRecordContext, useUpdate } from 'react-admin';
import type { WebhookEndpointRecord } from './types';

export const ToggleEndpointButton = () => {
  const record = useRecordContext<WebhookEndpointRecord>();
  const [confirming, setConfirming] = useState(false);
  const notify = useNotify();
  // Only the flag goes in the PUT: the BFF sends the service only what differs from the endpoint.
  const [update, { isPending }] = useUpdate<WebhookEndpointRecord>();
  if (!record) return null;
  const disabled = Boolean(record.disabled_at);
  const change = () =>
    update(
      'webhook-endpoints',
      { id: record.id, data: { disabled: !disabled }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setConfirming(false);
          notify(disabled ? 'Endpoint enabled' : 'Endpoint disabled', { type: 'success' });
        },
        onError: (error: unknown) => {
          setConfirming(false);
          notify(`Could not change the endpoint: ${error instanceof Error ? error.message : 'the server did not say why'}`, { type: 'error' });
        },
      },
    );
  return (
    <>
      <Button label={disabled ? 'Enable' : 'Disable'} onClick={() => (disabled ? change() : setConfirming(true))} disabled={isPending}>
        {disabled ? <PlayCircleIcon /> : <PauseCircleIcon />}
      </Button>
      <Confirm
        isOpen={confirming}
        loading={isPending}
        title="Disable this endpoint?"
        content="No events are sent to it while it is disabled, and its pending deliveries are cancelled. You can enable it again later."
        confirm="Disable"
        cancel="Keep enabled"
        confirmColor="warning"
        onConfirm={change}
        onClose={() => setConfirming(false)}
      />
    </>
  );
};

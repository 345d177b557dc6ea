/** Enabled, or disabled with the reason (the team, or the receiver answering 410 Gone). */
import { Chip } from '@mui/material';
import type { WebhookEndpointRecord } from './types';

export const disabledReasonText = (reason: string | null | undefined) =>
  // The service says `gone: the receiver answered 410` (older ones: `gone`).
  reason && /^gone\b/.test(reason) ? 'the receiver answered 410 Gone' : reason || 'no reason given';

export const EndpointStatusChip = ({ endpoint }: { endpoint: Pick<WebhookEndpointRecord, 'disabled_at' | 'disabled_reason'> }) =>
  endpoint.disabled_at ? (
    <Chip label={`Disabled: ${disabledReasonText(endpoint.disabled_reason)}`} color="warning" variant="outlined" />
  ) : (
    <Chip label="Enabled" color="success" />
  );

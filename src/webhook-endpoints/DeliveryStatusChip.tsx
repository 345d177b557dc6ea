/** A delivery's status; the service may add statuses: unknown ones show raw on a neutral chip. */
import type { ChipProps } from '@mui/material';
import type { WEBHOOK_DELIVERY_STATUSES } from '../../server/contract';
import { StatusChip, type KnownStatus } from '../components/StatusChip';

const s = (label: string, color: ChipProps['color'], description?: string): KnownStatus => ({ label, color, description });

export const DELIVERY_STATUSES: Record<string, KnownStatus> = {
  pending: s('Pending', 'info', 'Waiting for its next attempt'),
  succeeded: s('Delivered', 'success'),
  failed: s('Failed', 'error', 'Every attempt of the round failed'),
  cancelled: s('Cancelled', 'default', 'The endpoint was disabled before it was delivered'),
} satisfies Record<(typeof WEBHOOK_DELIVERY_STATUSES)[number], KnownStatus>;

export const DeliveryStatusChip = ({ value }: { value: string | null | undefined }) => <StatusChip value={value} known={DELIVERY_STATUSES} />;

import type { ChipProps } from '@mui/material';
import type { LAB_ACCOUNT_STATUSES as STATUS_VALUES } from '../../server/contract';
import { StatusChip, type KnownStatus } from '../components/StatusChip';

export const LAB_ACCOUNT_STATUSES: Record<string, KnownStatus> = {
  active: { label: 'Active', color: 'success', description: 'Orders can be placed under this account' },
  pending: { label: 'Pending', color: 'warning', description: 'Not yet approved: only imported orders may use it' },
  suspended: { label: 'Suspended', color: 'error', description: 'No orders can be placed under this account' },
} satisfies Record<(typeof STATUS_VALUES)[number], KnownStatus>;

/** A lab account's status; an unknown one shows raw on a neutral chip. */
export const LabAccountStatusChip = ({ value, size }: { value: string | null | undefined; size?: ChipProps['size'] }) => (
  <StatusChip value={value} known={LAB_ACCOUNT_STATUSES} size={size} />
);

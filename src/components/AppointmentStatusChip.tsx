/**
 * Appointment statuses, event statuses and providers as the dashboard names them. All three may
 * gain values (docs/bff-api.md): an unknown one shows raw, on a neutral chip, never an error.
 */
import type { ChipProps } from '@mui/material';
import type {
  APPOINTMENT_EVENT_STATUSES as EVENT_STATUS_VALUES,
  APPOINTMENT_PROVIDERS,
  APPOINTMENT_STATUSES as STATUS_VALUES,
} from '../../server/contract';
import { StatusChip, type KnownStatus } from './StatusChip';

type AppointmentStatus = (typeof STATUS_VALUES)[number];

const s = (label: string, color: ChipProps['color'], description?: string): KnownStatus => ({ label, color, description });

/** `status` of an appointment. */
export const APPOINTMENT_STATUSES: Record<string, KnownStatus> = {
  pending: s('Pending', 'info', 'Waiting for the provider to confirm'),
  reserved: s('Reserved', 'info', 'The slot is held while the provider confirms'),
  confirmed: s('Confirmed', 'success', 'The provider confirmed the time'),
  in_progress: s('In progress', 'primary', 'The phlebotomist is on the way or drawing'),
  completed: s('Completed', 'secondary'),
  cancelled: s('Cancelled', 'default'),
} satisfies Record<AppointmentStatus, KnownStatus>;

/** `status` of an appointment's events (and `event_status`). */
export const APPOINTMENT_EVENT_STATUSES: Record<string, KnownStatus> = {
  pending: s('Pending', 'info'),
  reserved: s('Reserved', 'info'),
  scheduled: s('Scheduled', 'success'),
  in_progress: s('In progress', 'primary'),
  completed: s('Completed', 'secondary'),
  cancelled: s('Cancelled', 'default'),
} satisfies Record<(typeof EVENT_STATUS_VALUES)[number], KnownStatus>;

export { AWAITING_PROVIDER_STATUSES, CHANGEABLE_APPOINTMENT_STATUSES } from '../../server/bff/api/appointments';

export const PROVIDER_NAMES: Record<string, string> = {
  provider_1: 'Provider 1',
  provider_2: 'Provider 2',
  provider_3: 'Provider 3',
  provider_4: 'Provider 4',
} satisfies Record<(typeof APPOINTMENT_PROVIDERS)[number], string>;

export const providerName = (slug: string | null | undefined) =>
  slug == null || slug === '' ? '' : Object.hasOwn(PROVIDER_NAMES, slug) ? PROVIDER_NAMES[slug]! : slug;

export const AppointmentStatusChip = ({
  value,
  event = false,
  size,
}: {
  value: string | null | undefined;
  /** An event's status (scheduled, ...) rather than the appointment's. */
  event?: boolean;
  size?: ChipProps['size'];
}) => <StatusChip value={value} known={event ? APPOINTMENT_EVENT_STATUSES : APPOINTMENT_STATUSES} size={size} />;

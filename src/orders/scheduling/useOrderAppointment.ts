/**
 * The order's current appointment (`GET /api/appointments/<order id>`; 404 = none), read again
 * every 2 s while the provider has not answered a booking, until it is confirmed or cancelled.
 * Then it says which, once, and rereads the order, whose status follows the appointment's.
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { AWAITING_PROVIDER_STATUSES } from '../../components/AppointmentStatusChip';
import type { LabdeskDataProvider } from '../../providers/types';
import type { AppointmentRecord } from '../../appointments/types';
import { pollInterval } from './appointmentState';
import { useAppointmentChanged } from './useAppointmentChanged';

/** How a wait for the provider ended, while the page was open. */
export type WaitOutcome = { status: string; appointment: AppointmentRecord };

/** Watches an appointment's status: when a wait for the provider ends, says how (once). */
export function useAppointmentPolling(appointment: AppointmentRecord | null | undefined) {
  const changed = useAppointmentChanged();
  const previous = useRef<string | undefined>(undefined);
  const [outcome, setOutcome] = useState<WaitOutcome | null>(null);
  const status = appointment?.status;
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (!status || status === was) return;
    if (AWAITING_PROVIDER_STATUSES.includes(status)) {
      setOutcome(null);
    } else if (was && AWAITING_PROVIDER_STATUSES.includes(was) && appointment) {
      setOutcome({ status, appointment });
      // The order moved too (appointment scheduled or cancelled): show it.
      void changed();
    }
  }, [status, appointment, changed]);
  return outcome;
}

export function useOrderAppointment(orderId: string) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  // Under 'appointments', so every change that rereads the appointments rereads this one too.
  const query = useQuery({
    queryKey: ['appointments', 'ofOrder', orderId],
    queryFn: () => dataProvider.getOrderAppointment(orderId),
    retry: false,
    refetchInterval: (q) => pollInterval(q.state.data),
  });
  const appointment = query.data ?? undefined;
  const outcome = useAppointmentPolling(appointment);
  return {
    appointment,
    isPending: query.isPending,
    // A failed reread keeps the last answer on screen; only a first read that failed is an error.
    error: query.data === undefined ? query.error : null,
    refetch: query.refetch,
    outcome,
  };
}

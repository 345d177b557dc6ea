import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/**
 * After an appointment changed (booked, requested, rescheduled, cancelled, or confirmed while we
 * waited): reread the appointment wherever it shows (order page, appointment page, list) and the
 * orders, whose status follows the appointment's. Resolves once the new data is in, so a
 * pessimistic action can close only when the page already shows its result.
 */
export function useAppointmentChanged() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['appointments'] }),
      queryClient.invalidateQueries({ queryKey: ['orders'] }),
    ]);
  }, [queryClient]);
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LabdeskDataProvider } from '../../providers/types';

/** Under the `orders` key: whatever refreshes the orders (a cancel, a resolve) refreshes these too. */
export const triageKey = (orderId: string) => ['orders', 'triage', orderId];
export const notesKey = (orderId: string) => ['orders', 'notes', orderId];

export function useOrderTriage(orderId: string) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const queryClient = useQueryClient();
  const triage = useQuery({ queryKey: triageKey(orderId), queryFn: () => dataProvider.getOrderTriage(orderId), retry: false });
  const notes = useQuery({ queryKey: notesKey(orderId), queryFn: () => dataProvider.getOrderNotes(orderId), retry: false });
  /** After a change: this order's triage and notes, and the lists (the queue shows owners and drops resolved orders). */
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['orders'] });
  };
  return { dataProvider, triage, notes, refresh };
}

import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LabdeskDataProvider } from '../../providers/types';

/** The order's walk-in visit and its nearest centers within `radius` (both under 'walk-in', reread after every change). */
export function useWalkIn(orderId: string, radius?: string) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const visit = useQuery({ queryKey: ['walk-in', 'visit', orderId], queryFn: () => dataProvider.getWalkInVisit(orderId), retry: false });
  const centers = useQuery({ queryKey: ['walk-in', 'centers', orderId, radius ?? 'default'], queryFn: () => dataProvider.getWalkInCenters(orderId, radius), retry: false, staleTime: 5 * 60_000 });
  return { visit, centers };
}

import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LabdeskDataProvider } from '../../providers/types';

/**
 * The order's results (null: the lab has not reported yet). Read again with the order: under the
 * 'orders' key, so whatever rereads orders (a status change, an acknowledgement) rereads these too.
 * While results are partial or not there, the page looks again every 30 s; an order that ended
 * (cancelled, failed) gets no more results, whatever its report says, so the page stops looking.
 */
export function useOrderResults(orderId: string, orderFinal: boolean, orderEnded: boolean) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  return useQuery({
    queryKey: ['orders', 'results', orderId],
    queryFn: () => dataProvider.getOrderResults(orderId),
    retry: false,
    refetchInterval: (q) => (orderEnded || (orderFinal && q.state.data?.metadata.status === 'final') ? false : 30_000),
  });
}

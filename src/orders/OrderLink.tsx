import type { MouseEvent } from 'react';
import { Link, useCreatePath } from 'react-admin';

/** A link to an order's page, named by the start of its id. In a clickable row it opens the order, not the row. */
export const OrderLink = ({ orderId }: { orderId: string }) => {
  const createPath = useCreatePath();
  return (
    <Link to={createPath({ resource: 'orders', id: orderId, type: 'show' })} onClick={(e: MouseEvent) => e.stopPropagation()}>
      {`Order ${orderId.slice(0, 8)}`}
    </Link>
  );
};

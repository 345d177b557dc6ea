import { usePermissions } from 'react-admin';
import { can } from '../../auth/permissions';
import type { OrderRecord } from '../types';
import { OnSiteDraw } from './OnSiteDraw';
import { WalkInVisitCard } from './WalkInVisitCard';

/** Whether the order page has a collection section for the order (its grid cell is left out otherwise). */
export const hasCollectionSection = (order: OrderRecord) => order.details?.type === 'walk_in_test' || order.details?.type === 'on_site_collection';

/** The order page's collection section for walk-in and on-site orders (at-home draws have their own). */
export const CollectionSection = ({ order }: { order: OrderRecord }) => {
  const { permissions } = usePermissions();
  const method = order.details?.type;
  if (method === 'walk_in_test' && can(permissions, 'appointments:read')) return <WalkInVisitCard order={order} />;
  if (method === 'on_site_collection') return <OnSiteDraw order={order} />;
  return null;
};

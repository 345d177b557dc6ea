import { Grid } from '@mui/material';
import { usePermissions } from 'react-admin';
import { can } from '../../auth/permissions';
import type { OrderRecord } from '../types';
import { OnSiteDraw } from './OnSiteDraw';
import { WalkInVisitCard } from './WalkInVisitCard';

/**
 * The order page's collection section for walk-in and on-site orders (at-home draws have their
 * own), as a full-width cell of the page's grid; nothing at all (not even an empty cell) when the
 * order is collected otherwise or the member's role may not act on it.
 */
export const CollectionSection = ({ order }: { order: OrderRecord }) => {
  const { permissions } = usePermissions();
  const method = order.details?.type;
  const card =
    method === 'walk_in_test' && can(permissions, 'appointments:read') ? (
      <WalkInVisitCard order={order} />
    ) : method === 'on_site_collection' && can(permissions, 'orders:collect') ? (
      <OnSiteDraw order={order} />
    ) : null;
  return card && <Grid size={12}>{card}</Grid>;
};

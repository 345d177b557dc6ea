import { Link, Stack, Typography } from '@mui/material';
import type { OrderRecord } from '../types';
import { shipmentTracking } from './tracking';

/** The order's tracking numbers, each a link to its carrier's page when the number's shape tells the carrier. */
export const TrackingLinks = ({ order, compact = false }: { order: Pick<OrderRecord, 'details'>; compact?: boolean }) => {
  const found = shipmentTracking(order.details?.data?.shipment as Record<string, unknown> | null | undefined);
  if (found.length === 0) return compact ? null : <Typography variant="body2" color="text.secondary">No tracking number yet</Typography>;
  return (
    <Stack direction={compact ? 'column' : 'row'} spacing={compact ? 0 : 2} component="span">
      {found.map(({ direction, tracking }) => (
        <Typography key={direction} variant="body2" component="span">
          {compact ? '' : `${direction}: `}
          {tracking.url ? (
            <Link href={tracking.url} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()} aria-label={`Track ${tracking.number} with ${tracking.carrier}`}>
              {tracking.carrier} {tracking.number}
            </Link>
          ) : (
            `${tracking.carrier ?? ''} ${tracking.number}`.trim()
          )}
        </Typography>
      ))}
    </Stack>
  );
};

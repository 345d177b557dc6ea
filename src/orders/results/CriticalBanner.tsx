import { Alert, AlertTitle, Box } from '@mui/material';
import { usePermissions } from 'react-admin';
import type { OrderResults } from '../../../server/bff/api';
import { can } from '../../auth/permissions';
import { formatInstant } from '../OrderTimeline';
import { AcknowledgeCriticalButton } from './AcknowledgeCriticalButton';

/** A critical value in red at the top of the results until someone acknowledges it; then who did, and when. */
export const CriticalBanner = ({ orderId, results }: { orderId: string; results: OrderResults }) => {
  const { permissions } = usePermissions();
  const critical = results.results.filter((r) => r.interpretation === 'critical');
  if (critical.length === 0) return null;
  const values = critical.map((r) => `${r.name} ${r.result}${r.unit ? ` ${r.unit}` : ''}`);
  const ack = results.critical_acknowledgement;
  if (ack) {
    return (
      <Alert severity="warning" role="status" aria-label="Critical result acknowledged" sx={{ mb: 2 }}>
        <AlertTitle>Critical value: {values.join(', ')}</AlertTitle>
        Acknowledged by {ack.acknowledged_by} on {formatInstant(ack.acknowledged_at)}
        {ack.note ? <Box component="span" sx={{ display: 'block', whiteSpace: 'pre-wrap' }}>“{ack.note}”</Box> : null}
      </Alert>
    );
  }
  return (
    <Alert
      severity="error"
      role="alert"
      aria-label="Critical result"
      sx={{ mb: 2 }}
      action={
        can(permissions, 'results:acknowledge') && ack !== undefined ? (
          <AcknowledgeCriticalButton orderId={orderId} names={critical.map((r) => r.name)} />
        ) : undefined
      }
    >
      <AlertTitle>Critical value: {values.join(', ')}</AlertTitle>
      Not acknowledged yet: a coordinator must act on it now (call the patient or the ordering physician).
      {ack === undefined ? ' This service does not record acknowledgements.' : ''}
    </Alert>
  );
};

/** The attempts of one delivery (oldest first, as the service lists them): when, answer, error, how long. */
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { localTime } from '../components/localTime';
import type { WebhookDeliveryRecord } from './types';

export const DeliveryAttempts = () => {
  const delivery = useRecordContext<WebhookDeliveryRecord>();
  if (!delivery) return null;
  if (!delivery.attempts.length) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
        Not attempted yet.
      </Typography>
    );
  }
  return (
    <Box sx={{ py: 1 }}>
      <Table size="small" aria-label={`Attempts of delivery ${delivery.id.slice(0, 8)}`}>
        <TableHead>
          <TableRow>
            <TableCell>Attempted (your time)</TableCell>
            <TableCell>Status code</TableCell>
            <TableCell>Error</TableCell>
            <TableCell align="right">Duration</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {delivery.attempts.map((a, i) => (
            <TableRow key={`${a.attempted_at}-${i}`}>
              <TableCell>
                <time dateTime={a.attempted_at}>{localTime(a.attempted_at)}</time>
              </TableCell>
              <TableCell>{a.status_code ?? 'No answer'}</TableCell>
              <TableCell>{a.error ?? '—'}</TableCell>
              <TableCell align="right">{`${a.duration_ms} ms`}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

/**
 * Whether the audit trail is intact: the BFF re-computes every event's hash over its content and
 * its predecessor's hash. An edited, removed or reordered event is named by its id.
 */
import { Alert, Button } from '@mui/material';
import VerifiedIcon from '@mui/icons-material/Verified';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LabdeskDataProvider } from '../providers/types';

export const ChainStatus = () => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const { data, error, isFetching, refetch } = useQuery({ queryKey: ['audit-events', 'verify'], queryFn: () => dataProvider.verifyAuditTrail(), staleTime: 60_000 });
  const again = (
    <Button color="inherit" size="small" onClick={() => void refetch()} disabled={isFetching}>
      Check again
    </Button>
  );
  if (error) return <Alert severity="error" action={again} sx={{ mb: 1 }}>The trail could not be checked: {error.message}</Alert>;
  if (!data) return <Alert severity="info" sx={{ mb: 1 }}>Checking the audit trail’s integrity…</Alert>;
  return data.ok ? (
    <Alert severity="success" icon={<VerifiedIcon />} action={again} sx={{ mb: 1 }} data-testid="audit-chain">
      Intact: all {data.checked.toLocaleString()} events match their hashes and their order.
    </Alert>
  ) : (
    <Alert severity="error" action={again} sx={{ mb: 1 }} data-testid="audit-chain">
      Broken at event {data.first_broken_id}: it was edited, removed or reordered after it was written ({data.checked.toLocaleString()} checked). Keep an
      export and tell your security officer.
    </Alert>
  );
};

/**
 * What a submitted review did, and the way on: "Next in queue" opens the oldest report still
 * waiting, so a reviewer can go from one to the next without the list.
 */
import { Alert, AlertTitle, Button, Stack } from '@mui/material';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { useRedirect } from 'react-admin';
import type { ParserJobRecord } from '../types';
import { useNextInQueue } from './useNextInQueue';

export const ReviewOutcome = ({ job }: { job: ParserJobRecord }) => {
  const redirect = useRedirect();
  const { next, isPending } = useNextInQueue(job.id, true);
  const approved = job.review?.decision === 'approve' || job.status === 'completed';
  return (
    <Alert
      severity={approved ? 'success' : 'info'}
      sx={{ mb: 2 }}
      role="status"
      action={
        <Stack direction="row" spacing={1}>
          <Button
            variant="contained"
            size="small"
            endIcon={<NavigateNextIcon />}
            disabled={isPending || !next}
            onClick={() => next && redirect('show', 'parser-jobs', next.id)}
          >
            Next in queue
          </Button>
        </Stack>
      }
    >
      <AlertTitle>{approved ? 'Approved' : 'Rejected'}</AlertTitle>
      {approved ? 'The results are filed for the patient; the job is completed.' : 'Nothing was filed; the job failed with your notes.'}{' '}
      {isPending ? 'Looking for the next report…' : next ? '' : 'No other report is waiting for review.'}
    </Alert>
  );
};

/**
 * One parser job. While the report is read, a progress bar that moves by itself (the page asks
 * again every 1.5 s); once read, the original document beside the extracted values, for review
 * or to read; a failed job says why.
 */
import { Suspense } from 'react';
import { Alert, AlertTitle, Button, Card, CardContent, CardHeader, Grid, LinearProgress, Stack } from '@mui/material';
import ListIcon from '@mui/icons-material/List';
import { Link, Show, TopToolbar, useCreatePath, usePermissions, useRecordContext, WithRecord } from 'react-admin';
import { can } from '../auth/permissions';
import { lazyView } from '../components/lazyView';
import { DocumentViewer } from './document/DocumentViewer';
import { isInFlight, jobPollInterval } from './jobState';
import { JobSummary } from './JobSummary';
import { ParsingProgress } from './ParsingProgress';
import type { ParserJobRecord } from './types';

// The review workspace (the table of read values and its editors) is downloaded only for a job
// that has been read; the summary and the document show meanwhile.
const ReviewWorkspace = lazyView(() => import('./review/ReviewWorkspace'), 'ReviewWorkspace');

const JobTitle = () => {
  const job = useRecordContext<ParserJobRecord>();
  if (!job) return null;
  return <span>{`Lab report ${job.file?.name ?? String(job.id).slice(0, 8)}`}</span>;
};

const Actions = () => {
  const createPath = useCreatePath();
  const queue = `?${new URLSearchParams({ filter: JSON.stringify({ queue: true }), sort: 'created_at', order: 'ASC' })}`;
  return (
    <TopToolbar>
      <Button component={Link} to={{ pathname: createPath({ resource: 'parser-jobs', type: 'list' }), search: queue }} startIcon={<ListIcon />} size="small">
        Review queue
      </Button>
    </TopToolbar>
  );
};

const Failure = ({ job }: { job: ParserJobRecord }) => (
  <Alert severity="error" role="region" aria-label="Failure">
    <AlertTitle>{job.review?.decision === 'reject' ? 'Rejected by a reviewer' : 'The report could not be read'}</AlertTitle>
    {job.failure_reason || job.review?.notes || 'The service did not say why.'}
  </Alert>
);

const JobPage = ({ job }: { job: ParserJobRecord }) => {
  const { permissions } = usePermissions();
  const failed = job.status === 'failed' || job.stage === 'failed';
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <JobSummary job={job} />
      {isInFlight(job) && (
        <Card component="section" aria-label="Parsing">
          <CardHeader title="Reading the report" subheader="This page updates by itself; you can leave it and come back." />
          <CardContent sx={{ pt: 0 }}>
            <ParsingProgress job={job} />
          </CardContent>
        </Card>
      )}
      {failed && <Failure job={job} />}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: job.data ? 5 : 12 }}>
          <DocumentViewer job={job} />
        </Grid>
        {job.data && (
          <Grid size={{ xs: 12, lg: 7 }}>
            <Suspense fallback={<LinearProgress aria-label="Loading the review" />}>
              <ReviewWorkspace job={{ ...job, data: job.data }} canReview={can(permissions, 'parser:review')} />
            </Suspense>
          </Grid>
        )}
      </Grid>
    </Stack>
  );
};

export const ParserJobShow = () => (
  <Show<ParserJobRecord>
    title={<JobTitle />}
    actions={<Actions />}
    component="div"
    queryOptions={{ refetchInterval: (query) => jobPollInterval(query.state.data as ParserJobRecord | undefined) }}
  >
    {/* Keyed by job: "Next in queue" opens another job on the same route, with a fresh review. */}
    <WithRecord<ParserJobRecord> render={(job) => <JobPage key={job.id} job={job} />} />
  </Show>
);

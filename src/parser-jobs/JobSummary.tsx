/**
 * The job at a glance: whose report, which file, when, where it stands, and (once reviewed) who
 * decided what. Times are the viewer's own.
 */
import type { ReactNode } from 'react';
import { Box, Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import { viewerTimeZone } from '../components/LocalTimeLabel';
import { localTime } from '../components/localTime';
import { formatBytes } from './upload/fileChecks';
import { ParserJobStageChip, ParserJobStatusChip } from './ParserJobStageChip';
import { PatientUserField } from './PatientUserField';
import { ReviewStateChip } from './ReviewStateChip';
import type { ParserJobRecord } from './types';

const Item = ({ label, children }: { label: string; children: ReactNode }) => (
  <Grid size={{ xs: 12, sm: 6, md: 3 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Box sx={{ typography: 'body2' }}>{children || '—'}</Box>
  </Grid>
);

export const JobSummary = ({ job }: { job: ParserJobRecord }) => (
  <Card component="section" aria-label="Job">
    <CardContent>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }} aria-label="Job status" flexWrap="wrap" useFlexGap>
        <ParserJobStageChip job={job} />
        {job.stage && <ParserJobStatusChip value={job.status} />}
        <ReviewStateChip job={job} />
      </Stack>
      <Grid container spacing={2}>
        <Item label="Patient user">
          <PatientUserField userId={job.user_id} />
        </Item>
        <Item label="File">{job.file ? `${job.file.name} (${formatBytes(job.file.size)})` : ''}</Item>
        <Item label={`Uploaded (${viewerTimeZone()})`}>
          {job.created_at && <time dateTime={job.created_at}>{localTime(job.created_at)}</time>}
        </Item>
        <Item label="Pages">
          {job.stats ? `${job.stats.pages}${job.stats.ocr_pages ? ` (${job.stats.ocr_pages} scanned, read by OCR)` : ''}` : ''}
        </Item>
        {job.review && (
          <>
            <Item label="Review">{`${job.review.decision === 'approve' ? 'Approved' : job.review.decision === 'reject' ? 'Rejected' : job.review.decision}${job.reviewer_name || job.review.reviewer ? ` by ${job.reviewer_name ?? job.review.reviewer}` : ''}`}</Item>
            <Item label="Reviewed">{job.review.reviewed_at && <time dateTime={job.review.reviewed_at}>{localTime(job.review.reviewed_at)}</time>}</Item>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="caption" color="text.secondary" component="div">
                Review notes
              </Typography>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="review-notes">
                {job.review.notes || '—'}
              </Typography>
            </Grid>
          </>
        )}
      </Grid>
    </CardContent>
  </Card>
);

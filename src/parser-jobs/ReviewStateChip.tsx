/**
 * Whether a person has to check, or has checked, a job's values. "Review requested" marks jobs the
 * uploader sent to review on purpose; others went because a value looked doubtful.
 */
import { Chip, Typography } from '@mui/material';
import type { ParserJobRecord } from './types';

export const ReviewStateChip = ({ job }: { job: ParserJobRecord }) => {
  if (job.is_reviewed) {
    const decision = job.review?.decision;
    const label = decision === 'approve' ? 'Reviewed: approved' : decision === 'reject' ? 'Reviewed: rejected' : 'Reviewed';
    return <Chip label={label} color={decision === 'reject' ? 'default' : 'success'} variant="outlined" />;
  }
  if (job.needs_human_review) {
    return (
      <Chip
        label={job.review_requested ? 'Needs review (requested)' : 'Needs review'}
        color="warning"
        variant="outlined"
        title={job.review_requested ? 'The uploader asked for a human review' : 'Some values looked doubtful'}
      />
    );
  }
  return (
    <Typography variant="body2" color="text.secondary" component="span">
      No review
    </Typography>
  );
};

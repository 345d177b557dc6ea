/**
 * How far the reading of a report got: a determinate bar from the job's `progress` (indeterminate
 * while it has none, e.g. still queued), with the words beside it. Shown while queued or parsing.
 */
import { Box, LinearProgress, Typography } from '@mui/material';
import { progressPercent } from './jobState';
import type { ParserJobRecord } from './types';

export const stageWords = (job: Pick<ParserJobRecord, 'stage'>) => (job.stage === 'queued' ? 'Queued' : 'Reading the report');

export const ParsingProgress = ({ job, compact }: { job: ParserJobRecord; compact?: boolean }) => {
  const percent = progressPercent(job);
  const words = `${stageWords(job)}${percent === null ? '' : ` (${percent}%)`}`;
  return (
    <Box sx={{ minWidth: compact ? 120 : undefined }}>
      {percent === null ? (
        <LinearProgress aria-label="Parsing progress" aria-valuetext={words} />
      ) : (
        <LinearProgress variant="determinate" value={percent} aria-label="Parsing progress" aria-valuetext={words} />
      )}
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }} aria-live={compact ? undefined : 'polite'}>
        {words}
      </Typography>
    </Box>
  );
};

/**
 * Where a parser job is, as a chip: its `stage` when the service says (this service's extension),
 * else its `status`. Both may gain values: an unknown one is shown raw on a neutral chip.
 */
import type { ChipProps } from '@mui/material';
import { StatusChip, type KnownStatus } from '../components/StatusChip';
import type { ParserJobRecord } from './types';

const s = (label: string, color: ChipProps['color'], description?: string): KnownStatus => ({ label, color, description });

export const PARSER_JOB_STAGES: Record<string, KnownStatus> = {
  queued: s('Queued', 'default', 'Uploaded; waiting for a parser to pick it up'),
  parsing: s('Parsing', 'info', 'The report is being read'),
  awaiting_review: s('Awaiting review', 'warning', 'Read; a person must check the values before they count'),
  done: s('Done', 'success'),
  failed: s('Failed', 'error'),
};

export const PARSER_JOB_STATUSES: Record<string, KnownStatus> = {
  upload_pending: s('Upload pending', 'default'),
  started: s('Started', 'info'),
  completed: s('Completed', 'success'),
  failed: s('Failed', 'error'),
};

export const ParserJobStageChip = ({ job, size }: { job: Pick<ParserJobRecord, 'stage' | 'status'>; size?: ChipProps['size'] }) =>
  job.stage ? (
    <StatusChip value={job.stage} known={PARSER_JOB_STAGES} size={size} />
  ) : (
    <StatusChip value={job.status} known={PARSER_JOB_STATUSES} size={size} />
  );

/** The job's top-level status, for pages that show both. */
export const ParserJobStatusChip = ({ value, size }: { value: string | null | undefined; size?: ChipProps['size'] }) => (
  <StatusChip value={value} known={PARSER_JOB_STATUSES} size={size} />
);

/**
 * The interpretation and the high/low flags as read. They follow from the value and the range, so
 * once either is corrected they are shown as "worked out again on approval" rather than stale.
 */
import { Chip, Stack, Typography, type ChipProps } from '@mui/material';
import { StatusChip, type KnownStatus } from '../../components/StatusChip';
import type { LabReportResult } from '../types';

const s = (label: string, color: ChipProps['color']): KnownStatus => ({ label, color });
export const INTERPRETATIONS: Record<string, KnownStatus> = {
  normal: s('Normal', 'success'),
  abnormal: s('Abnormal', 'warning'),
  critical: s('Critical', 'error'),
  unknown: s('Unknown', 'default'),
};

export const ResultFlags = ({ result, stale }: { result: LabReportResult; stale: boolean }) => {
  if (stale) {
    return (
      <Typography variant="caption" color="text.secondary">
        Worked out again on approval
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      {result.interpretation && <StatusChip value={result.interpretation} known={INTERPRETATIONS} />}
      {result.is_above_max_range && <Chip label="High" color="warning" variant="outlined" title="Above the reference range" />}
      {result.is_below_min_range && <Chip label="Low" color="warning" variant="outlined" title="Below the reference range" />}
      {!result.interpretation && !result.is_above_max_range && !result.is_below_min_range && <span>—</span>}
    </Stack>
  );
};

import { Box, Typography } from '@mui/material';
import type { ParserJobRecord } from './types';

/** The uploaded file's name (long names wrap), or a dash when the job has none. */
export const ReportFileName = ({ job }: { job: ParserJobRecord }) =>
  job.file?.name ? (
    <Box component="span" sx={{ wordBreak: 'break-all' }}>
      {job.file.name}
    </Box>
  ) : (
    <Typography variant="body2" color="text.secondary" component="span">
      —
    </Typography>
  );

/**
 * What an empty list says, by tab: an empty review queue is good news (and says where else to
 * look); an empty "All jobs" says how to start.
 */
import { Box, Typography } from '@mui/material';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { CreateButton, useListContext, useResourceDefinition } from 'react-admin';

export const ParserJobsEmpty = () => {
  const { filterValues } = useListContext();
  const { hasCreate } = useResourceDefinition();
  const queue = Boolean(filterValues.queue);
  const others = Object.keys(filterValues).some((k) => k !== 'queue');
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2, color: 'text.secondary' }}>
      {queue ? <TaskAltIcon sx={{ fontSize: 48 }} aria-hidden /> : <UploadFileIcon sx={{ fontSize: 48 }} aria-hidden />}
      <Typography variant="h6" component="h2" color="text.primary" gutterBottom>
        {others ? 'No reports match these filters' : queue ? 'No reports are waiting for review' : 'Upload a lab report to start'}
      </Typography>
      <Typography gutterBottom>
        {others
          ? 'Clear the filters to see every report.'
          : queue
            ? 'Every report read so far has been checked. New ones appear here, oldest first, once they are read.'
            : 'Upload a PDF, JPEG or PNG of a lab report: its biomarkers are read for you, and doubtful values go to a reviewer.'}
      </Typography>
      {!queue && !others && hasCreate && <CreateButton label="Upload a report" icon={<UploadFileIcon />} variant="contained" sx={{ mt: 2 }} />}
    </Box>
  );
};

/** The bytes on their way: a determinate bar from the browser's upload events, then "processing". */
import { Box, LinearProgress, Typography } from '@mui/material';
import type { UploadState } from './useUploadReport';

export const UploadProgress = ({ state }: { state: UploadState }) => {
  if (state.phase === 'idle') return null;
  const percent = state.phase === 'processing' ? 100 : state.fraction === null ? null : Math.round(state.fraction * 100);
  const words =
    state.phase === 'processing'
      ? `Uploaded ${state.fileName}; waiting for the server to accept it`
      : `Uploading ${state.fileName}${percent === null ? '' : `: ${percent}%`}`;
  return (
    <Box sx={{ width: '100%', mb: 2 }} role="group" aria-label="Upload">
      {percent === null ? (
        <LinearProgress aria-label="Upload progress" />
      ) : (
        <LinearProgress variant="determinate" value={percent} aria-label="Upload progress" aria-valuetext={words} />
      )}
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }} aria-live="polite">
        {words}
      </Typography>
    </Box>
  );
};

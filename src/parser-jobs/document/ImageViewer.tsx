/** A scanned report (JPEG or PNG) as the browser shows images, with zoom; scrolls when zoomed in. */
import { useState } from 'react';
import { Box, Stack } from '@mui/material';
import { ViewerFallback } from './ViewerFallback';
import { ZoomControls } from './ZoomControls';

export const ImageViewer = ({ url, name }: { url: string; name: string }) => {
  const [zoom, setZoom] = useState(1);
  const [failed, setFailed] = useState(false);
  if (failed) return <ViewerFallback url={url} message="The image could not be shown here." />;
  return (
    <Stack spacing={1}>
      <ZoomControls zoom={zoom} onZoom={setZoom} />
      <Box sx={{ overflow: 'auto', maxHeight: '75vh', border: '1px solid', borderColor: 'divider', borderRadius: 1 }}>
        <Box
          component="img"
          src={url}
          alt={`The uploaded report, ${name}`}
          onError={() => setFailed(true)}
          sx={{ display: 'block', width: `${zoom * 100}%`, maxWidth: 'none', height: 'auto' }}
        />
      </Box>
    </Stack>
  );
};

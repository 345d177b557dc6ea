/** Zoom out / in / fit for the document viewers; 100% is "as wide as the pane". */
import { IconButton, Stack, Tooltip, Typography } from '@mui/material';
import FitScreenIcon from '@mui/icons-material/FitScreen';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import { MAX_ZOOM, MIN_ZOOM, zoomIn, zoomOut } from './documentFile';

export const ZoomControls = ({ zoom, onZoom }: { zoom: number; onZoom: (zoom: number) => void }) => (
  <Stack direction="row" spacing={0.5} alignItems="center">
    <Tooltip title="Zoom out">
      <span>
        <IconButton size="small" aria-label="Zoom out" onClick={() => onZoom(zoomOut(zoom))} disabled={zoom <= MIN_ZOOM}>
          <ZoomOutIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
    <Typography variant="caption" sx={{ minWidth: 40, textAlign: 'center' }} aria-live="polite" aria-label="Zoom">
      {`${Math.round(zoom * 100)}%`}
    </Typography>
    <Tooltip title="Zoom in">
      <span>
        <IconButton size="small" aria-label="Zoom in" onClick={() => onZoom(zoomIn(zoom))} disabled={zoom >= MAX_ZOOM}>
          <ZoomInIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
    <Tooltip title="Fit to width">
      <IconButton size="small" aria-label="Fit to width" onClick={() => onZoom(1)}>
        <FitScreenIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  </Stack>
);

/** When the document cannot be shown in the page: say so, and offer the original in a new tab. */
import { Alert, Button } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';

export const ViewerFallback = ({ url, message }: { url: string; message: string }) => (
  <Alert
    severity="info"
    action={
      <Button component="a" href={url} target="_blank" rel="noopener" size="small" endIcon={<OpenInNewIcon />}>
        Open the original
      </Button>
    }
  >
    {message}
  </Alert>
);

export const ViewerLoading = ({ what }: { what: string }) => (
  <Alert severity="info" icon={false} role="status">
    {`Loading ${what}…`}
  </Alert>
);

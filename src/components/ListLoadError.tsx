import { Alert, Button } from '@mui/material';
import { useGetResourceLabel, useListContext } from 'react-admin';

/**
 * In place of a list's rows when they could not be read. Without it react-admin shows the table's
 * "no match" text, which tells a coordinator the patients are not there when the service is only
 * unreachable for a moment.
 */
export const ListLoadError = () => {
  const { error, refetch, resource } = useListContext();
  const label = useGetResourceLabel()(resource, 2).toLowerCase();
  const reason = error instanceof Error && error.message ? error.message : 'The request failed.';
  return (
    <Alert
      severity="error"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" onClick={() => void refetch()}>
          Try again
        </Button>
      }
    >
      Could not load {label}: {/[.!?]$/.test(reason) ? reason : `${reason}.`} Nothing was changed.
    </Alert>
  );
};

/**
 * The team's result-webhook setting (admins, beside the endpoints): whether each partial result
 * set is announced (`labtest.result.partial`) or only the final report. Off by default.
 */
import { Alert, Card, CardContent, FormControlLabel, Switch, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HttpError, useDataProvider, useNotify } from 'react-admin';
import type { LabdeskDataProvider } from '../providers/types';

const KEY = ['team-settings'];

export const TeamWebhookSettings = () => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: KEY, queryFn: () => dataProvider.getTeamSettings(), retry: false });
  const mutation = useMutation({
    mutationFn: (on: boolean) => dataProvider.updateTeamSettings({ partial_results_webhooks: on }),
    onSuccess: (next) => {
      queryClient.setQueryData(KEY, next);
      notify(next.partial_results_webhooks ? 'Partial results will be announced' : 'Only final results will be announced', { type: 'success' });
    },
    onError: (error: unknown) => notify(`Could not change the setting: ${error instanceof HttpError || error instanceof Error ? error.message : 'unknown error'}`, { type: 'error' }),
  });
  if (settings.error) {
    // A service without team settings: say so once, without hiding the endpoints.
    const status = settings.error instanceof HttpError ? settings.error.status : 0;
    return status === 501 ? null : <Alert severity="warning" sx={{ mb: 2 }}>The team's webhook settings could not be loaded.</Alert>;
  }
  const on = settings.data?.partial_results_webhooks ?? false;
  return (
    <Card component="section" aria-label="Result webhooks" sx={{ mb: 2 }}>
      <CardContent>
        <FormControlLabel
          control={<Switch checked={on} disabled={settings.isPending || mutation.isPending} onChange={(e) => mutation.mutate(e.target.checked)} />}
          label="Announce partial results"
        />
        <Typography variant="body2" color="text.secondary">
          When on, every partial result set is sent as a <code>labtest.result.partial</code> event as it arrives, not only the final report
          (<code>labtest.order.updated</code>). The event carries counts, not values: receivers read the results from the service.
        </Typography>
      </CardContent>
    </Card>
  );
};

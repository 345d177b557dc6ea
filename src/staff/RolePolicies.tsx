/**
 * Two-factor per role: switching it on makes every member of the role set it up at their next
 * sign-in (until they do, they can do nothing else). Shown beside the staff list.
 */
import { Card, CardContent, FormControlLabel, Switch, Typography } from '@mui/material';
import { useGetList, useNotify, useUpdate } from 'react-admin';
import { ROLE_LABELS, type Role, type RolePolicyRecord } from '../../server/bff/api';

export const RolePolicies = () => {
  const { data, isPending, error } = useGetList<RolePolicyRecord>('role-policies', { pagination: { page: 1, perPage: 50 } });
  const [update, { isPending: saving }] = useUpdate<RolePolicyRecord>();
  const notify = useNotify();
  const toggle = (policy: RolePolicyRecord) =>
    update(
      'role-policies',
      { id: policy.id, data: { mfa_required: !policy.mfa_required }, previousData: policy },
      {
        mutationMode: 'pessimistic',
        onSuccess: (saved) => notify(`${ROLE_LABELS[saved.role as Role] ?? saved.role}: two-factor ${saved.mfa_required ? 'required' : 'optional'}`, { type: 'info' }),
        onError: (e) => notify(e instanceof Error ? e.message : 'The rule could not be saved', { type: 'error' }),
      },
    );
  return (
    <Card sx={{ ml: 2, mt: 8, width: 260, flexShrink: 0, alignSelf: 'flex-start' }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          Require two-factor
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Members of these roles must set up an authenticator app before they can use Labdesk.
        </Typography>
        {error && <Typography color="error">Could not load the rules: {error.message}</Typography>}
        {!isPending &&
          data?.map((policy) => (
            <FormControlLabel
              key={policy.id}
              sx={{ display: 'flex' }}
              control={<Switch checked={policy.mfa_required} disabled={saving} onChange={() => toggle(policy)} />}
              label={ROLE_LABELS[policy.role as Role] ?? policy.role}
            />
          ))}
      </CardContent>
    </Card>
  );
};

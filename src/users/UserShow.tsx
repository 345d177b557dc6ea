import { Stack } from '@mui/material';
import { Show, usePermissions } from 'react-admin';
import { can } from '../auth/permissions';
import { ConnectedSources } from './ConnectedSources';
import { MindfulnessCard } from './MindfulnessCard';
import { UserProfile } from './UserProfile';
import { UserTitle } from './UserTitle';

export const UserShow = () => {
  // Lab operations see the patient directory but not wearable health data.
  const { permissions } = usePermissions();
  return (
    <Show title={<UserTitle />} component="div">
      <Stack spacing={2} sx={{ mt: 1 }}>
        <UserProfile />
        <ConnectedSources />
        {can(permissions, 'timeseries:read') && <MindfulnessCard />}
      </Stack>
    </Show>
  );
};

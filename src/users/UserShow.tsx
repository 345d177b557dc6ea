import { Stack } from '@mui/material';
import { Show } from 'react-admin';
import { ConnectedSources } from './ConnectedSources';
import { MindfulnessCard } from './MindfulnessCard';
import { UserProfile } from './UserProfile';
import { UserTitle } from './UserTitle';

export const UserShow = () => (
  <Show title={<UserTitle />} component="div">
    <Stack spacing={2} sx={{ mt: 1 }}>
      <UserProfile />
      <ConnectedSources />
      <MindfulnessCard />
    </Stack>
  </Show>
);

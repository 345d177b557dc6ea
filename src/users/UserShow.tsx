import { Stack } from '@mui/material';
import { Show, TabbedShowLayout, usePermissions } from 'react-admin';
import { can } from '../auth/permissions';
import { BiomarkersTab } from './biomarkers/BiomarkersTab';
import { ConnectedSources } from './ConnectedSources';
import { MindfulnessCard } from './MindfulnessCard';
import { UserProfile } from './UserProfile';
import { UserTitle } from './UserTitle';

export const UserShow = () => {
  // Lab operations see the patient directory but not wearable health data.
  const { permissions } = usePermissions();
  return (
    <Show title={<UserTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Overview">
          <Stack spacing={2} sx={{ width: '100%' }}>
            <UserProfile />
            <ConnectedSources />
            {can(permissions, 'timeseries:read') && <MindfulnessCard />}
          </Stack>
        </TabbedShowLayout.Tab>
        {can(permissions, 'results:read') && (
          <TabbedShowLayout.Tab label="Biomarkers" path="biomarkers">
            <BiomarkersTab />
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
};

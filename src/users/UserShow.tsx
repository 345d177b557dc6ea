import { Stack } from '@mui/material';
import { Show, TabbedShowLayout, usePermissions } from 'react-admin';
import { can } from '../auth/permissions';
import { BiomarkersTab } from './biomarkers/BiomarkersTab';
import { ConnectedSources } from './ConnectedSources';
import { MindfulnessCard } from './MindfulnessCard';
import { PatientActions } from './patient/PatientActions';
import { PatientAppointments } from './patient/PatientAppointments';
import { PatientOrders } from './patient/PatientOrders';
import { PatientReports } from './patient/PatientReports';
import { UserProfile } from './UserProfile';
import { UserTitle } from './UserTitle';

/** The patient in one place: each tab shows only what the signed-in role may read. */
export const UserShow = () => {
  // Lab operations see the patient directory but not wearable health data.
  const { permissions } = usePermissions();
  return (
    <Show title={<UserTitle />} actions={<PatientActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Profile">
          <Stack spacing={2} sx={{ width: '100%' }}>
            <UserProfile />
            <ConnectedSources />
            {can(permissions, 'timeseries:read') && <MindfulnessCard />}
          </Stack>
        </TabbedShowLayout.Tab>
        {can(permissions, 'orders:read') && (
          <TabbedShowLayout.Tab label="Orders" path="orders">
            <PatientOrders />
          </TabbedShowLayout.Tab>
        )}
        {can(permissions, 'appointments:read') && (
          <TabbedShowLayout.Tab label="Appointments" path="appointments">
            <PatientAppointments />
          </TabbedShowLayout.Tab>
        )}
        {can(permissions, 'parser:read') && (
          <TabbedShowLayout.Tab label="Lab reports" path="reports">
            <PatientReports />
          </TabbedShowLayout.Tab>
        )}
        {can(permissions, 'results:read') && (
          <TabbedShowLayout.Tab label="Biomarkers" path="biomarkers">
            <BiomarkersTab />
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
};

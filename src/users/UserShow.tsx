import { Stack } from '@mui/material';
import type { ComponentType } from 'react';
import { Show, TabbedShowLayout, usePermissions } from 'react-admin';
import { can, type Permission } from '../auth/permissions';
import { BiomarkersTab } from './biomarkers/BiomarkersTab';
import { ConnectedSources } from './ConnectedSources';
import { MindfulnessCard } from './MindfulnessCard';
import { PatientActions } from './patient/PatientActions';
import { PatientAppointments } from './patient/PatientAppointments';
import { PatientOrders } from './patient/PatientOrders';
import { PatientReports } from './patient/PatientReports';
import { UserProfile } from './UserProfile';
import { UserTitle } from './UserTitle';

/** The tabs after the profile, each shown to the roles that may read what it lists. */
const PATIENT_TABS: { label: string; path: string; permission: Permission; Content: ComponentType }[] = [
  { label: 'Orders', path: 'orders', permission: 'orders:read', Content: PatientOrders },
  { label: 'Appointments', path: 'appointments', permission: 'appointments:read', Content: PatientAppointments },
  { label: 'Lab reports', path: 'reports', permission: 'parser:read', Content: PatientReports },
  { label: 'Biomarkers', path: 'biomarkers', permission: 'results:read', Content: BiomarkersTab },
];

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
        {PATIENT_TABS.filter((tab) => can(permissions, tab.permission)).map(({ label, path, Content }) => (
          <TabbedShowLayout.Tab key={path} label={label} path={path}>
            <Content />
          </TabbedShowLayout.Tab>
        ))}
      </TabbedShowLayout>
    </Show>
  );
};

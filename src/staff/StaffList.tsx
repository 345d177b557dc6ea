/** Everyone who can sign in to Labdesk, with their role, two-factor and last sign-in (admins only). */
import { Chip } from '@mui/material';
import { BooleanInput, CreateButton, DataTable, DateField, List, SelectArrayInput, TextInput, TopToolbar, useRecordContext } from 'react-admin';
import type { StaffRecord } from '../../server/bff/api';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { RoleChip, roleChoices } from './RoleChip';
import { RolePolicies } from './RolePolicies';
import { ListLoadError } from '../components/ListLoadError';

const filters = [
  <TextInput key="q" source="q" label="Search by name or e-mail" alwaysOn resettable />,
  <SelectArrayInput key="role" source="role" label="Role" choices={roleChoices} alwaysOn />,
  <BooleanInput key="disabled" source="disabled" label="Disabled only" />,
];

const StatusChip = () => {
  const record = useRecordContext<StaffRecord>();
  if (!record) return null;
  return record.disabled ? <Chip size="small" color="warning" label="Disabled" /> : <Chip size="small" color="success" variant="outlined" label="Active" />;
};

const MfaChip = () => {
  const record = useRecordContext<StaffRecord>();
  if (!record) return null;
  return <Chip size="small" variant="outlined" color={record.mfa_enabled ? 'success' : 'default'} label={record.mfa_enabled ? 'On' : 'Off'} />;
};

const Column = DataTable.Col<StaffRecord>;

export const StaffList = () => (
  <List<StaffRecord>
    error={<ListLoadError />}
    title="Staff"
    sort={{ field: 'email', order: 'ASC' }}
    filters={filters}
    actions={
      <TopToolbar>
        <CreateButton label="Add staff member" />
      </TopToolbar>
    }
    aside={<RolePolicies />}
  >
    <DataTable<StaffRecord> bulkActionButtons={false} rowClick="edit">
      <Column source="name" />
      <Column source="email" label="E-mail" />
      <Column source="role">
        <RoleChip />
      </Column>
      <Column label="Status" disableSort>
        <StatusChip />
      </Column>
      <Column label="Two-factor" disableSort>
        <MfaChip />
      </Column>
      <Column source="last_sign_in_at" label={<LocalTimeLabel label="Last sign-in" />}>
        <DateField source="last_sign_in_at" showTime emptyText="Never" />
      </Column>
    </DataTable>
  </List>
);

import { Typography } from '@mui/material';
import { DataTable, List, SelectInput } from 'react-admin';
import { choicesOf, LAB_NAMES, labelOf } from '../components/labLabels';
import { LabAccountStatusChip } from './LabAccountStatusChip';
import type { LabAccountRecord } from './types';
import { ListPagination } from '../components/ListPagination';
import { ListLoadError } from '../components/ListLoadError';

const filters = [
  <SelectInput
    key="status"
    source="status"
    label="Status"
    alwaysOn
    emptyText="Any status"
    choices={[
      { id: 'active', name: 'Active' },
      { id: 'pending', name: 'Pending' },
      { id: 'suspended', name: 'Suspended' },
    ]}
  />,
  <SelectInput key="lab" source="lab" label="Lab" alwaysOn emptyText="Any lab" choices={choicesOf(LAB_NAMES)} />,
];

const Column = DataTable.Col<LabAccountRecord>;

export const labName = (slug: string | null | undefined) => labelOf(LAB_NAMES, slug);

const NoMatch = () => (
  <Typography sx={{ p: 2 }} color="text.secondary">
    No lab accounts match these filters.
  </Typography>
);

// The BFF sorts lab accounts by lab, status or account name (the service answers them in one list).
export const LabAccountList = () => (
  <List<LabAccountRecord> error={<ListLoadError />} pagination={<ListPagination />} sort={{ field: 'lab', order: 'ASC' }} filters={filters} perPage={25}>
    <DataTable<LabAccountRecord> rowClick="show" bulkActionButtons={false} empty={<NoMatch />}>
      <Column source="account_name" label="Account" render={(r) => r.account_name || r.provider_account_id} />
      <Column source="lab" label="Lab" render={(r) => labName(r.lab)} />
      <Column source="status" label="Status" render={(r) => <LabAccountStatusChip value={r.status} size="small" />} />
      <Column source="delegated_flow" label="Delegation" disableSort render={(r) => r.delegated_flow.replace(/_/g, ' ')} />
      <Column source="provider_account_id" label="Provider account id" disableSort />
      <Column
        label="Billing types"
        disableSort
        render={(r) => Object.keys(r.allowed_billing ?? {}).length || <Typography variant="body2" color="text.secondary">None</Typography>}
      />
    </DataTable>
  </List>
);

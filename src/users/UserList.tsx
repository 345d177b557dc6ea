import { Typography } from '@mui/material';
import { DataTable, DateField, List, SearchInput } from 'react-admin';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { SourceChips } from '../components/SourceChips';
import type { UserRecord } from './types';
import { UsersEmpty } from './UsersEmpty';
import { usersListDefaults } from './listDefaults';
import { ListPagination } from '../components/ListPagination';
import { ListLoadError } from '../components/ListLoadError';

const filters = [
  <SearchInput
    key="q"
    source="q"
    alwaysOn
    placeholder="Search by client user id"
    slotProps={{ htmlInput: { 'aria-label': 'Search by client user id' } }}
  />,
];

const NoMatch = () => (
  <Typography sx={{ p: 2 }} color="text.secondary">
    No users match this search.
  </Typography>
);

const Column = DataTable.Col<UserRecord>;

// The BFF can only sort users by creation: `id` (its natural order) and `created_on`. Any other
// sort would be refused with a 400, so the other columns are not sortable.
export const UserList = () => (
  <List<UserRecord> error={<ListLoadError />} pagination={<ListPagination />} sort={usersListDefaults.sort} perPage={usersListDefaults.perPage} filters={filters} empty={<UsersEmpty />}>
    <DataTable<UserRecord> rowClick="show" bulkActionButtons={false} empty={<NoMatch />}>
      <Column source="client_user_id" label="Client user id" disableSort />
      <Column
        label="Connected sources"
        disableSort
        render={(record) => <SourceChips sources={record.connected_sources} />}
      />
      <Column
        label="Fallback time zone"
        disableSort
        render={(record) => record.fallback_time_zone?.id ?? <Typography variant="body2" color="text.secondary">Not set</Typography>}
      />
      <Column source="created_on" label={<LocalTimeLabel label="Created" />}>
        <DateField source="created_on" showTime />
      </Column>
    </DataTable>
  </List>
);

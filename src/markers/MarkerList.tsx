import { Typography } from '@mui/material';
import { DataTable, List, SearchInput } from 'react-admin';
import { LabSelectInput, useLabs } from './LabSelectInput';
import type { MarkerRecord } from './types';
import { ListPagination } from '../components/ListPagination';
import { ListLoadError } from '../components/ListLoadError';

const filters = [
  <SearchInput
    key="q"
    source="q"
    alwaysOn
    placeholder="Search by name or test code"
    slotProps={{ htmlInput: { 'aria-label': 'Search markers by name or test code' } }}
    sx={{ minWidth: 280 }}
  />,
  <LabSelectInput key="lab_slug" source="lab_slug" label="Lab" alwaysOn sx={{ minWidth: 200 }} />,
];

const Column = DataTable.Col<MarkerRecord>;
const Muted = ({ children }: { children: string }) => (
  <Typography variant="body2" color="text.secondary" component="span">
    {children}
  </Typography>
);

const NoMatch = () => (
  <Typography sx={{ p: 2 }} color="text.secondary">
    No markers match these filters.
  </Typography>
);

const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
export const formatPrice = (price: string | null | undefined) => {
  if (price == null || price === '') return null;
  const n = Number(price);
  return Number.isFinite(n) ? usd.format(n) : price;
};

// The service lists markers in its own order only, so no column is sortable (any other sort is a 400).
export const MarkerList = () => {
  const { labs } = useLabs();
  const labName = (id: number | null | undefined) => labs.find((l) => l.id === id)?.name ?? (id == null ? '' : `Lab ${id}`);
  return (
    <List<MarkerRecord> error={<ListLoadError />} pagination={<ListPagination />} sort={{ field: 'id', order: 'ASC' }} filters={filters} perPage={25}>
      <DataTable<MarkerRecord> rowClick="show" bulkActionButtons={false} empty={<NoMatch />}>
        <Column source="name" label="Name" disableSort />
        <Column source="provider_id" label="Test code" disableSort render={(r) => r.provider_id ?? <Muted>None</Muted>} />
        <Column source="lab_id" label="Lab" disableSort render={(r) => labName(r.lab_id)} />
        <Column source="type" label="Type" disableSort render={(r) => r.type ?? <Muted>Not set</Muted>} />
        <Column label="Expected results" disableSort render={(r) => r.expected_results.length} />
        <Column source="price" label="Price" disableSort render={(r) => formatPrice(r.price) ?? <Muted>Not set</Muted>} />
        <Column
          source="a_la_carte_enabled"
          label="À la carte"
          disableSort
          render={(r) => (r.a_la_carte_enabled ? 'Yes' : 'No')}
        />
      </DataTable>
    </List>
  );
};

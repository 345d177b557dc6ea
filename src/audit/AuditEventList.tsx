import { Chip } from '@mui/material';
import { AutocompleteInput, DataTable, DateField, FilterButton, List, ReferenceInput, SelectInput, TextInput, TopToolbar, useRecordContext } from 'react-admin';
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, type AuditEventRecord } from '../../server/bff/api';
import { ListPagination } from '../components/ListPagination';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { AuditRecords } from './AuditRecords';
import { ChainStatus } from './ChainStatus';
import { ExportAuditButton } from './ExportAuditButton';
import { ListLoadError } from '../components/ListLoadError';

const staffLabel = (member: { name?: string; email?: string }) => member.name || member.email || '';

const filters = [
  <SelectInput
    key="action"
    source="action"
    alwaysOn
    choices={AUDIT_ACTIONS.map((a) => ({ id: a, name: a }))}
  />,
  <SelectInput key="outcome" source="outcome" alwaysOn choices={AUDIT_OUTCOMES.map((o) => ({ id: o, name: o }))} />,
  // Patients by their client id (what coordinators know them by); the trail filters by user id.
  <ReferenceInput key="patient_id" source="patient_id" reference="users" alwaysOn>
    <AutocompleteInput label="Patient" optionText="client_user_id" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
  </ReferenceInput>,
  // Staff by name; the trail filters by the member's id.
  <ReferenceInput key="staff_id" source="staff_id" reference="staff" alwaysOn>
    <AutocompleteInput label="Staff member" optionText={staffLabel} filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
  </ReferenceInput>,
  <TextInput key="resource" source="resource" alwaysOn />,
];

const OutcomeChip = () => {
  const record = useRecordContext<AuditEventRecord>();
  if (!record) return null;
  return <Chip size="small" label={record.outcome} color={record.outcome === 'ok' ? 'default' : record.outcome === 'throttled' ? 'error' : 'warning'} variant="outlined" />;
};

/** The actor by name (as the staff list names them now); the e-mail of the time when the member is gone. */
const Actor = () => {
  const record = useRecordContext<AuditEventRecord>();
  if (!record) return null;
  return <span title={record.staff_email ?? undefined}>{record.staff_name ?? record.staff_email ?? 'Not signed in'}</span>;
};

const Column = DataTable.Col<AuditEventRecord>;

/** Who looked at which patient records, newest first. */
export const AuditEventList = () => (
  <List<AuditEventRecord>
    error={<ListLoadError />}
    pagination={<ListPagination />}
    sort={{ field: 'at', order: 'DESC' }}
    filters={filters}
    perPage={50}
    actions={
      <TopToolbar>
        <FilterButton />
        <ExportAuditButton />
      </TopToolbar>
    }
  >
    <ChainStatus />
    <DataTable<AuditEventRecord> bulkActionButtons={false} rowClick={false}>
      <Column source="at" label={<LocalTimeLabel label="When" />} disableSort>
        <DateField source="at" showTime />
      </Column>
      <Column label="Staff" disableSort>
        <Actor />
      </Column>
      <Column source="action" disableSort />
      <Column source="resource" disableSort />
      <Column label="Records" disableSort>
        <AuditRecords />
      </Column>
      <Column label="Outcome" disableSort>
        <OutcomeChip />
      </Column>
      <Column source="ip" label="Address" disableSort />
    </DataTable>
  </List>
);

import { Chip } from '@mui/material';
import { DataTable, DateField, FilterButton, List, SelectInput, TextInput, TopToolbar, useRecordContext } from 'react-admin';
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, type AuditEventRecord } from '../../server/bff/api';
import { ListPagination } from '../components/ListPagination';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { ChainStatus } from './ChainStatus';
import { ExportAuditButton } from './ExportAuditButton';

const filters = [
  <SelectInput
    key="action"
    source="action"
    alwaysOn
    choices={AUDIT_ACTIONS.map((a) => ({ id: a, name: a }))}
  />,
  <SelectInput key="outcome" source="outcome" alwaysOn choices={AUDIT_OUTCOMES.map((o) => ({ id: o, name: o }))} />,
  <TextInput key="patient_id" source="patient_id" label="Patient (user id)" />,
  <TextInput key="resource" source="resource" alwaysOn />,
];

const OutcomeChip = () => {
  const record = useRecordContext<AuditEventRecord>();
  if (!record) return null;
  return <Chip size="small" label={record.outcome} color={record.outcome === 'ok' ? 'default' : record.outcome === 'throttled' ? 'error' : 'warning'} variant="outlined" />;
};

const RecordCount = () => {
  const record = useRecordContext<AuditEventRecord>();
  return <>{record?.record_ids.length ?? 0}</>;
};

const Column = DataTable.Col<AuditEventRecord>;

/** Who looked at which patient records, newest first. */
export const AuditEventList = () => (
  <List<AuditEventRecord>
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
      <Column source="staff_email" label="Staff" disableSort />
      <Column source="action" disableSort />
      <Column source="resource" disableSort />
      <Column label="Records" disableSort>
        <RecordCount />
      </Column>
      <Column label="Outcome" disableSort>
        <OutcomeChip />
      </Column>
      <Column source="ip" label="Address" disableSort />
    </DataTable>
  </List>
);

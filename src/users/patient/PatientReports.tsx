import { DataTable, DateField, ListBase, usePermissions, useRecordContext } from 'react-admin';
import { can } from '../../auth/permissions';
import { ListPagination } from '../../components/ListPagination';
import { LocalTimeLabel } from '../../components/LocalTimeLabel';
import { ParserJobStageChip } from '../../parser-jobs/ParserJobStageChip';
import { ReportFileName } from '../../parser-jobs/ReportFileName';
import { ReviewStateChip } from '../../parser-jobs/ReviewStateChip';
import type { ParserJobRecord } from '../../parser-jobs/types';
import type { UserRecord } from '../types';
import { UploadReportButton } from './PatientActions';
import { TabEmpty } from './TabEmpty';

const Column = DataTable.Col<ParserJobRecord>;

/** Lab reports uploaded for the patient (parser jobs), newest first; each opens the job. */
export const PatientReports = () => {
  const record = useRecordContext<UserRecord>();
  const { permissions } = usePermissions();
  if (!record) return null;
  return (
    <ListBase<ParserJobRecord>
      resource="parser-jobs"
      filter={{ user_id: record.id }}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={10}
      disableSyncWithLocation
      storeKey={false}
      empty={
        <TabEmpty
          title="No lab reports yet"
          action={can(permissions, 'parser:upload') ? <UploadReportButton userId={record.id} label="Upload a report" /> : undefined}
        >
          Upload a lab report (PDF or photo) of this patient; its values are read off and filed under them.
        </TabEmpty>
      }
    >
      <DataTable<ParserJobRecord> rowClick="show" bulkActionButtons={false} aria-label="Lab reports of this patient">
        <Column source="created_at" label={<LocalTimeLabel label="Uploaded" />} disableSort>
          <DateField source="created_at" showTime />
        </Column>
        <Column label="File" disableSort render={(r) => <ReportFileName job={r} />} />
        <Column label="Status" disableSort render={(r) => <ParserJobStageChip job={r} />} />
        <Column label="Review" disableSort render={(r) => <ReviewStateChip job={r} />} />
      </DataTable>
      <ListPagination rowsPerPageOptions={[10]} />
    </ListBase>
  );
};

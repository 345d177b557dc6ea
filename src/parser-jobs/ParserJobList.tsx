/**
 * Parser jobs: the review queue (oldest first, where reviewers start their day) and all jobs
 * (newest first). The BFF pages them by cursor, so there is no total: react-admin's partial
 * pagination (previous / next). While a job on screen is still being read, the list asks again
 * every 3 s so its progress bar moves and it drops into the queue by itself.
 */
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { CreateButton, DataTable, DateField, List, TopToolbar, usePermissions, useResourceDefinition } from 'react-admin';
import { can } from '../auth/permissions';
import { ListPagination } from '../components/ListPagination';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import { isInFlight, listPollInterval } from './jobState';
import { ParserJobsEmpty } from './ParserJobsEmpty';
import { ParserQueueLine } from './ParserQueueLine';
import { ParserJobStageChip } from './ParserJobStageChip';
import { ALL_SORT, ParserJobTabs, QUEUE_SORT } from './ParserJobTabs';
import { ParsingProgress } from './ParsingProgress';
import { PatientUserField } from './PatientUserField';
import { ReportFileName } from './ReportFileName';
import { ReviewStateChip } from './ReviewStateChip';
import type { ParserJobRecord } from './types';
import { ListLoadError } from '../components/ListLoadError';

const Column = DataTable.Col<ParserJobRecord>;

const Actions = () => {
  const { hasCreate } = useResourceDefinition();
  return <TopToolbar>{hasCreate && <CreateButton label="Upload a report" icon={<UploadFileIcon />} />}</TopToolbar>;
};

// Only the upload time is sortable: the BFF sorts by arrival (created_at / id) and nothing else.
// No CSV export: file names may name the patient.
export const ParserJobList = () => {
  const { permissions, isPending } = usePermissions();
  // Wait for the role: reviewers start on the queue, everyone else on all jobs.
  if (isPending) return null;
  const reviewer = can(permissions, 'parser:review');
  return (
    <List<ParserJobRecord>
      error={<ListLoadError />}
      title="Lab reports"
      sort={reviewer ? QUEUE_SORT : ALL_SORT}
      filterDefaultValues={reviewer ? { queue: true } : {}}
      perPage={25}
      pagination={<ListPagination />}
      actions={<Actions />}
      empty={false}
      exporter={false}
      queryOptions={{ refetchInterval: (query) => listPollInterval(query.state.data?.data) }}
    >
      <ParserQueueLine />
      <ParserJobTabs />
      <DataTable<ParserJobRecord> rowClick="show" bulkActionButtons={false} empty={<ParserJobsEmpty />}>
        <Column source="created_at" label={<LocalTimeLabel label="Uploaded" />}>
          <DateField source="created_at" showTime />
        </Column>
        <Column source="user_id" label="Patient user" disableSort render={(r) => <PatientUserField userId={r.user_id} />} />
        <Column label="File" disableSort render={(r) => <ReportFileName job={r} />} />
        <Column label="Status" disableSort render={(r) => <ParserJobStageChip job={r} />} />
        <Column label="Review" disableSort render={(r) => <ReviewStateChip job={r} />} />
        <Column label="Progress" disableSort render={(r) => (isInFlight(r) ? <ParsingProgress job={r} compact /> : null)} />
      </DataTable>
    </List>
  );
};

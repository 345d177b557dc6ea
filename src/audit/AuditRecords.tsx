/**
 * Which records an audited access touched: their ids, each a link to its page where the dashboard
 * has one (an order read is the order's page), and the patients whose data it was. A reviewer of
 * the trail sees what was read, not only how many; long lists show their first few.
 */
import { Box, Typography } from '@mui/material';
import { Link, useCreatePath, useRecordContext } from 'react-admin';
import type { AuditEventRecord } from '../../server/bff/api';

const SHOWN = 3;

/** The trail's resource names → the dashboard's pages showing such a record. */
const PAGE_OF: Record<string, string> = {
  users: 'users',
  orders: 'orders',
  order_results: 'orders',
  order_requisitions: 'orders',
  appointments: 'appointments',
  parser_jobs: 'parser-jobs',
  parser_job_files: 'parser-jobs',
  lab_accounts: 'lab-accounts',
  staff: 'staff',
  webhook_endpoints: 'webhook-endpoints',
};

/** Ids are long: the first eight characters tell them apart on a page, the whole id is in the title. */
const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

const IdList = ({ label, ids, page }: { label: string; ids: string[]; page?: string }) => {
  const createPath = useCreatePath();
  if (!ids.length) return null;
  const rest = ids.length - SHOWN;
  return (
    <Typography variant="body2" component="div">
      <Box component="span" sx={{ color: 'text.secondary' }}>{`${label}: `}</Box>
      {ids.slice(0, SHOWN).map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          {page ? (
            <Link to={createPath({ resource: page, id, type: page === 'staff' ? 'edit' : 'show' })} title={id}>
              {short(id)}
            </Link>
          ) : (
            <span title={id}>{short(id)}</span>
          )}
        </span>
      ))}
      {rest > 0 && ` and ${rest} more`}
    </Typography>
  );
};

export const AuditRecords = () => {
  const record = useRecordContext<AuditEventRecord>();
  if (!record) return null;
  const patients = record.patient_ids.filter((id) => !(record.resource === 'users' && record.record_ids.includes(id)));
  if (!record.record_ids.length && !patients.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        None
      </Typography>
    );
  }
  return (
    <Box>
      <IdList label={record.resource} ids={record.record_ids} page={PAGE_OF[record.resource]} />
      <IdList label="patients" ids={patients} page="users" />
    </Box>
  );
};

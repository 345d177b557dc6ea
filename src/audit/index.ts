import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { AuditEventList } from './AuditEventList';

export default {
  list: AuditEventList,
  icon: ManageSearchIcon,
  options: { label: 'Audit trail' },
};

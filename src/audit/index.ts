import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const AuditEventList = lazyView(() => import('./AuditEventList'), 'AuditEventList');

export default {
  list: AuditEventList,
  icon: ManageSearchIcon,
  options: { label: 'Audit trail' },
};

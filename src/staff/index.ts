import BadgeIcon from '@mui/icons-material/Badge';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const StaffCreate = lazyView(() => import('./StaffCreate'), 'StaffCreate');
const StaffEdit = lazyView(() => import('./StaffEdit'), 'StaffEdit');
const StaffList = lazyView(() => import('./StaffList'), 'StaffList');

// Admins only (staff:manage; App.tsx). Sign-in changes (disable, passwords, two-factor) are actions
// on the edit page; there is no show view.
export default {
  list: StaffList,
  edit: StaffEdit,
  create: StaffCreate,
  icon: BadgeIcon,
  options: { label: 'Staff' },
  recordRepresentation: 'email',
};

import BadgeIcon from '@mui/icons-material/Badge';
import { StaffCreate } from './StaffCreate';
import { StaffEdit } from './StaffEdit';
import { StaffList } from './StaffList';

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

import PeopleIcon from '@mui/icons-material/People';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const UserList = lazyView(() => import('./UserList'), 'UserList');
const UserShow = lazyView(() => import('./UserShow'), 'UserShow');

export default {
  list: UserList,
  show: UserShow,
  icon: PeopleIcon,
  recordRepresentation: 'client_user_id',
};

import PeopleIcon from '@mui/icons-material/People';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const UserList = lazyView(() => import('./UserList'), 'UserList');
const UserShow = lazyView(() => import('./UserShow'), 'UserShow');
const UserCreate = lazyView(() => import('./UserCreate'), 'UserCreate');
const UserEdit = lazyView(() => import('./UserEdit'), 'UserEdit');

// App.tsx gives create and edit only to roles with users:write.
export default {
  list: UserList,
  show: UserShow,
  create: UserCreate,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: 'client_user_id',
};

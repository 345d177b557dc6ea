import ScienceIcon from '@mui/icons-material/Science';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const OrderCreate = lazyView(() => import('./OrderCreate'), 'OrderCreate');
const OrderList = lazyView(() => import('./OrderList'), 'OrderList');
const OrderShow = lazyView(() => import('./OrderShow'), 'OrderShow');

export default {
  list: OrderList,
  show: OrderShow,
  create: OrderCreate,
  icon: ScienceIcon,
  options: { label: 'Orders' },
};

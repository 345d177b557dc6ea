import ScienceIcon from '@mui/icons-material/Science';
import { OrderCreate } from './OrderCreate';
import { OrderList } from './OrderList';
import { OrderShow } from './OrderShow';

export default {
  list: OrderList,
  show: OrderShow,
  create: OrderCreate,
  icon: ScienceIcon,
  options: { label: 'Orders' },
};

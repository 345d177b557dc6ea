import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const LabAccountList = lazyView(() => import('./LabAccountList'), 'LabAccountList');
const LabAccountShow = lazyView(() => import('./LabAccountShow'), 'LabAccountShow');

export default {
  list: LabAccountList,
  show: LabAccountShow,
  icon: AccountBalanceIcon,
  options: { label: 'Lab accounts' },
  recordRepresentation: (r: { account_name?: string | null; provider_account_id: string }) => r.account_name || r.provider_account_id,
};

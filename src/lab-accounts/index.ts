import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { LabAccountList } from './LabAccountList';
import { LabAccountShow } from './LabAccountShow';

export default {
  list: LabAccountList,
  show: LabAccountShow,
  icon: AccountBalanceIcon,
  options: { label: 'Lab accounts' },
  recordRepresentation: (r: { account_name?: string | null; provider_account_id: string }) => r.account_name || r.provider_account_id,
};

import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { ROLE_LABELS, type Role, type StaffRecord } from '../../server/bff/api';

/** The member's role; one this dashboard does not know yet is shown as it came. */
export const RoleChip = () => {
  const record = useRecordContext<StaffRecord>();
  if (!record) return null;
  const label = ROLE_LABELS[record.role as Role] ?? record.role;
  return <Chip size="small" label={label} color={record.role === 'admin' ? 'primary' : 'default'} variant="outlined" />;
};

export const roleChoices = (Object.keys(ROLE_LABELS) as Role[]).map((id) => ({ id, name: ROLE_LABELS[id] }));

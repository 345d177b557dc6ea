import { useRecordContext } from 'react-admin';
import type { UserRecord } from './types';

export const UserTitle = () => {
  const record = useRecordContext<UserRecord>();
  return <span>User {record?.client_user_id ?? ''}</span>;
};

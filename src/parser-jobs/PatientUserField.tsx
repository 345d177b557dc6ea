/**
 * The patient a report belongs to, as their client user id. Reading the users directory needs
 * `users:read`, which reviewers lack (the BFF would answer 403), so they see the short user id.
 */
import { Typography } from '@mui/material';
import { ReferenceField, TextField, usePermissions } from 'react-admin';
import { can } from '../auth/permissions';

export const PatientUserField = ({ userId, link = false }: { userId: string | null | undefined; link?: false | 'show' }) => {
  const { permissions } = usePermissions();
  if (!userId) return <Typography variant="body2" color="text.secondary" component="span">Not given</Typography>;
  if (!can(permissions, 'users:read')) {
    return (
      <Typography variant="body2" component="span" title={userId}>
        {`User ${userId.slice(0, 8)}`}
      </Typography>
    );
  }
  return (
    <ReferenceField source="user_id" reference="users" link={link} record={{ id: userId, user_id: userId }}>
      <TextField source="client_user_id" />
    </ReferenceField>
  );
};

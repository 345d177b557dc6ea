import { Edit, SimpleForm, useRecordContext } from 'react-admin';
import type { UserRecord } from './types';
import { toUpdateUserBody, userFormValues, type UserFormValues } from './userForm';
import { UserFormFields } from './UserFormFields';
import { UserTitle } from './UserTitle';

/** The form starts from the record's flat values (the zone's id, the birth date's value). */
const UserEditForm = () => {
  const record = useRecordContext<UserRecord>();
  if (!record) return null;
  return (
    <SimpleForm record={userFormValues(record)} sx={{ maxWidth: 720 }}>
      <UserFormFields />
    </SimpleForm>
  );
};

export const UserEdit = () => (
  <Edit title={<UserTitle />} mutationMode="pessimistic" redirect="show" transform={(values: UserFormValues) => toUpdateUserBody(values)}>
    <UserEditForm />
  </Edit>
);

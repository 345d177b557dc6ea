import { Create, SimpleForm } from 'react-admin';
import { toCreateUserBody, type UserFormValues } from './userForm';
import { UserFormFields } from './UserFormFields';

// Pessimistic: the service decides what a valid client id is, and its answer shows on the field.
export const UserCreate = () => (
  <Create title="New patient" mutationMode="pessimistic" redirect="show" transform={(values: UserFormValues) => toCreateUserBody(values)}>
    <SimpleForm sx={{ maxWidth: 720 }}>
      <UserFormFields />
    </SimpleForm>
  </Create>
);

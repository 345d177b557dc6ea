/**
 * Adding a staff member: e-mail, name and role. The password is generated here and shown once
 * after the member is created; the BFF refuses a taken e-mail on the e-mail field.
 */
import { useState } from 'react';
import { Create, email, required, SelectInput, SimpleForm, TextInput, useRedirect } from 'react-admin';
import type { StaffRecord } from '../../server/bff/api';
import { generatePassword } from './generatePassword';
import { PasswordDialog } from './PasswordDialog';
import { roleChoices } from './RoleChip';

export const StaffCreate = () => {
  const [created, setCreated] = useState<{ record: StaffRecord; password: string } | null>(null);
  const [password] = useState(generatePassword);
  const redirect = useRedirect();
  return (
    <>
      <Create<StaffRecord>
        title="Add a staff member"
        mutationMode="pessimistic"
        transform={(data: Record<string, unknown>) => ({ email: data.email, name: data.name, role: data.role, password })}
        mutationOptions={{ onSuccess: (record: StaffRecord) => setCreated({ record, password }) }}
      >
        <SimpleForm>
          <TextInput source="email" label="E-mail" validate={[required(), email()]} type="email" autoComplete="off" />
          <TextInput source="name" validate={required()} />
          <SelectInput source="role" choices={roleChoices} validate={required()} helperText="What they may see and do: see docs/permissions.md" />
        </SimpleForm>
      </Create>
      {created && <PasswordDialog email={created.record.email} password={created.password} onClose={() => redirect('list', 'staff')} />}
    </>
  );
};

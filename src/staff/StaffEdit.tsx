/**
 * One staff member: name and role (saved together), and the actions that end their sessions at
 * once: disable/enable, reset password (a new one is generated and shown once), reset two-factor.
 * The BFF refuses to demote or disable the last active admin, on the field concerned.
 */
import { useState } from 'react';
import { Alert, Button, Stack } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import KeyIcon from '@mui/icons-material/Key';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import {
  Confirm,
  DateField,
  Edit,
  Labeled,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  useDataProvider,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRefresh,
  useUpdate,
} from 'react-admin';
import type { StaffRecord } from '../../server/bff/api';
import type { LabdeskDataProvider } from '../providers/types';
import { generatePassword } from './generatePassword';
import { PasswordDialog } from './PasswordDialog';
import { roleChoices } from './RoleChip';

type Pending = 'disable' | 'enable' | 'password' | 'mfa' | null;

const QUESTIONS: Record<Exclude<Pending, null>, { title: string; content: string }> = {
  disable: { title: 'Disable this member?', content: 'They are signed out everywhere at once and cannot sign in until enabled again.' },
  enable: { title: 'Enable this member?', content: 'They can sign in again with their password.' },
  password: { title: 'Reset the password?', content: 'A new password is generated and shown once; the member is signed out everywhere.' },
  mfa: { title: 'Reset two-factor?', content: 'For a lost phone: the member signs in with the password alone and sets up two-factor again. They are signed out everywhere.' },
};

const AccessActions = () => {
  const record = useRecordContext<StaffRecord>();
  const { identity } = useGetIdentity();
  const [pending, setPending] = useState<Pending>(null);
  const [password, setPassword] = useState<string | null>(null);
  const [update, { isPending: updating }] = useUpdate<StaffRecord>();
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const self = identity?.id === record.id;

  const failed = (e: unknown) => notify(e instanceof Error ? e.message : 'The change was not saved', { type: 'error' });
  const change = (data: Partial<StaffRecord> & { password?: string }, done: string, after?: () => void) =>
    update('staff', { id: record.id, data, previousData: record }, { mutationMode: 'pessimistic', onSuccess: () => { notify(done, { type: 'info' }); after?.(); }, onError: failed });

  const confirm = async () => {
    const what = pending;
    setPending(null);
    if (what === 'disable') change({ disabled: true }, `${record.email} is disabled and signed out`);
    if (what === 'enable') change({ disabled: false }, `${record.email} can sign in again`);
    if (what === 'password') {
      const fresh = generatePassword();
      change({ password: fresh }, 'Password reset', () => setPassword(fresh));
    }
    if (what === 'mfa') {
      try {
        await dataProvider.resetStaffMfa(record.id);
        notify(`Two-factor reset for ${record.email}`, { type: 'info' });
        refresh();
      } catch (e) {
        failed(e);
      }
    }
  };

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }} flexWrap="wrap">
        {record.disabled ? (
          <Button variant="outlined" color="success" startIcon={<CheckCircleIcon />} disabled={updating} onClick={() => setPending('enable')}>
            Enable
          </Button>
        ) : (
          <Button variant="outlined" color="warning" startIcon={<BlockIcon />} disabled={updating} onClick={() => setPending('disable')}>
            {self ? 'Disable (yourself)' : 'Disable'}
          </Button>
        )}
        <Button variant="outlined" startIcon={<KeyIcon />} disabled={updating} onClick={() => setPending('password')}>
          Reset password
        </Button>
        <Button variant="outlined" startIcon={<PhonelinkEraseIcon />} disabled={updating || !record.mfa_enabled} onClick={() => setPending('mfa')}>
          Reset two-factor
        </Button>
      </Stack>
      {record.disabled && <Alert severity="warning" sx={{ mb: 2 }}>Disabled: this member cannot sign in.</Alert>}
      <Confirm isOpen={pending !== null} title={pending ? QUESTIONS[pending].title : ''} content={pending ? QUESTIONS[pending].content : ''} onConfirm={confirm} onClose={() => setPending(null)} />
      {password && <PasswordDialog email={record.email} password={password} onClose={() => setPassword(null)} />}
    </>
  );
};

const EditToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

const StaffTitle = () => {
  const record = useRecordContext<StaffRecord>();
  return <>{record ? `Staff: ${record.name || record.email}` : 'Staff'}</>;
};

export const StaffEdit = () => (
  <Edit<StaffRecord> title={<StaffTitle />} mutationMode="pessimistic" transform={(data: StaffRecord) => ({ name: data.name, role: data.role })}>
    <SimpleForm toolbar={<EditToolbar />}>
      <AccessActions />
      <Labeled label="E-mail">
        <TextInput source="email" disabled helperText={false} label={false} />
      </Labeled>
      <TextInput source="name" validate={required()} />
      <SelectInput source="role" choices={roleChoices} validate={required()} helperText="Changing the role signs the member out everywhere" />
      <Stack direction="row" spacing={4}>
        <Labeled label="Created">
          <DateField source="created_at" showTime />
        </Labeled>
        <Labeled label="Last sign-in">
          <DateField source="last_sign_in_at" showTime emptyText="Never" />
        </Labeled>
      </Stack>
    </SimpleForm>
  </Edit>
);

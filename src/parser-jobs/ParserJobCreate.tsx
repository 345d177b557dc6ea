/**
 * Uploading a lab report: whose it is, the file, and whether a person must check every value
 * (otherwise only doubtful readings go to review). Sent with a real upload progress bar; then the
 * job's page opens and shows the parsing.
 */
import { Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  AutocompleteInput,
  Create,
  ReferenceInput,
  required,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  usePermissions,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import { isUuid } from '../../server/bff/api';
import { can } from '../auth/permissions';
import { CheckboxInput } from './upload/CheckboxInput';
import { ReportFileInput } from './upload/ReportFileInput';
import { UploadProgress } from './upload/UploadProgress';
import { useUploadReport, type UploadState } from './upload/useUploadReport';

const userId = (value: unknown) =>
  typeof value === 'string' && value && !isUuid(value) ? 'Enter a user id like 0b7e6a8e-1111-4000-8000-000000000001' : undefined;

/** Coordinators search the patient directory; roles without it (reviewers) paste the user id. */
const PatientInput = () => {
  const { permissions } = usePermissions();
  if (!can(permissions, 'users:read')) {
    return (
      <TextInput
        source="user_id"
        label="Patient user id"
        helperText="The patient's user id (a UUID), as the coordinator gave it"
        validate={[required('Enter the patient user id'), userId]}
        fullWidth
      />
    );
  }
  return (
    <ReferenceInput source="user_id" reference="users">
      <AutocompleteInput
        label="Patient (client user id)"
        optionText="client_user_id"
        filterToQuery={(q: string) => ({ q })}
        validate={required('Choose the patient the report belongs to')}
        helperText="The report's results are filed under this user"
        fullWidth
      />
    </ReferenceInput>
  );
};

const UploadToolbar = ({ state }: { state: UploadState }) => {
  const { isSubmitting } = useFormState();
  return (
    <Toolbar sx={{ flexDirection: 'column', alignItems: 'stretch' }}>
      <UploadProgress state={state} />
      <SaveButton label="Upload" icon={<UploadFileIcon />} alwaysEnable={!isSubmitting} sx={{ alignSelf: 'flex-start' }} />
    </Toolbar>
  );
};

const Fields = ({ busy }: { busy: boolean }) => (
  <>
    <PatientInput />
    <ReportFileInput source="file" label="Lab report file" disabled={busy} />
    <CheckboxInput
      source="needs_human_review"
      label="Ask for a human review"
      helperText="A reviewer checks every value before the results count. Without it, only doubtful readings go to review."
      disabled={busy}
    />
  </>
);

export const ParserJobCreate = () => {
  const { submit, state } = useUploadReport();
  return (
    // The submit is useUploadReport's own (pessimistic) create, which reports upload progress.
    <Create title="Upload a lab report">
      <SimpleForm onSubmit={submit} toolbar={<UploadToolbar state={state} />} sx={{ maxWidth: 720 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          The biomarkers are read off the report for you. Values the reader is unsure of are sent to a reviewer before they reach the
          patient&apos;s record.
        </Typography>
        <Fields busy={state.phase !== 'idle'} />
      </SimpleForm>
    </Create>
  );
};

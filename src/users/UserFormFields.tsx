import { Box } from '@mui/material';
import { DateInput, required, TextInput } from 'react-admin';

const half = { flex: '1 1 240px' } as const;

/** The fields staff may set on a patient (create and edit alike). */
export const UserFormFields = () => (
  <>
    <TextInput
      source="client_user_id"
      label="Client user id"
      validate={required('Enter your own id for this patient')}
      helperText="Your own opaque id for the patient (a record number, say). Never an e-mail address or phone number."
      fullWidth
    />
    <TextInput
      source="fallback_time_zone"
      label="Fallback time zone"
      helperText="Optional. An IANA zone such as America/New_York, used where a source's data carries none."
      fullWidth
    />
    <DateInput source="fallback_birth_date" label="Fallback birth date" helperText="Optional. Used where a source gives no age." />
    <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, width: '100%' }}>
      <Box sx={half}>
        <DateInput source="ingestion_start" label="Ingestion start" helperText="Optional. No data before this day is taken in." fullWidth />
      </Box>
      <Box sx={half}>
        <DateInput source="ingestion_end" label="Ingestion end" helperText="Optional. No data after this day is taken in." fullWidth />
      </Box>
    </Box>
  </>
);

/** The patient's details and address: what the lab and the phlebotomist need to know. */
import { DateInput, email, regex, required, SelectInput, TextInput } from 'react-admin';
import { Box } from '@mui/material';
import { CountedTextInput } from '../../components/CountedTextInput';
import { choicesOf, GENDERS, NOTES_MAX, US_STATES, ZIP_CODE } from '../choices';
import { Half, Row, SectionTitle } from './layout';

export const ZIP_MESSAGE = 'Enter a zip code of 5 digits, optionally followed by a hyphen and 4 digits (12345 or 12345-6789)';
export const zipValidators = [required(), regex(ZIP_CODE, ZIP_MESSAGE)];
export const stateChoices = US_STATES.map((s) => ({ id: s, name: s }));

export const PatientSection = () => (
  <>
    <SectionTitle>Patient</SectionTitle>
    <Row>
      <Half>
        <TextInput source="patient_details.first_name" label="First name" validate={required()} fullWidth />
      </Half>
      <Half>
        <TextInput source="patient_details.last_name" label="Last name" validate={required()} fullWidth />
      </Half>
      <Half>
        <DateInput source="patient_details.dob" label="Date of birth" validate={required()} fullWidth />
      </Half>
      <Half>
        <SelectInput source="patient_details.gender" label="Gender" choices={choicesOf(GENDERS)} validate={required()} fullWidth />
      </Half>
      <Half>
        <TextInput source="patient_details.phone_number" label="Phone" validate={required()} fullWidth />
      </Half>
      <Half>
        <TextInput source="patient_details.email" label="Email" type="email" validate={[required(), email()]} fullWidth />
      </Half>
    </Row>
  </>
);

export const AddressSection = () => (
  <>
    <SectionTitle>Address</SectionTitle>
    <Row>
      <Half>
        <TextInput source="patient_address.receiver_name" label="Receiver name" helperText="Optional; the patient by default" fullWidth />
      </Half>
      <Half>
        <TextInput source="patient_address.phone_number" label="Phone at the address" fullWidth />
      </Half>
    </Row>
    <TextInput source="patient_address.first_line" label="Street address" validate={required()} fullWidth />
    <TextInput source="patient_address.second_line" label="Apartment, suite, unit" fullWidth />
    <Row>
      <Half>
        <TextInput source="patient_address.city" label="City" validate={required()} fullWidth />
      </Half>
      <Box sx={{ flex: '0 1 140px' }}>
        <SelectInput source="patient_address.state" label="State" choices={stateChoices} validate={required()} fullWidth />
      </Box>
      <Box sx={{ flex: '0 1 200px' }}>
        <TextInput source="patient_address.zip" label="Zip code" validate={zipValidators} fullWidth />
      </Box>
    </Row>
    <CountedTextInput
      source="patient_address.access_notes"
      label="Access notes"
      max={NOTES_MAX}
      helperText="Gate codes, parking, entrance directions; passed to the phlebotomist"
    />
  </>
);

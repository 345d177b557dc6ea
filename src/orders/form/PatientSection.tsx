/** The patient's details and address: what the lab and the phlebotomist need to know. */
import { DateInput, email, required, SelectInput, TextInput } from 'react-admin';
import { CountedTextInput } from '../../components/CountedTextInput';
import { choicesOf, GENDERS, NOTES_MAX } from '../choices';
import { AddressInputs } from './AddressInputs';
import { Half, Row, SectionTitle } from './layout';


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
    <AddressInputs source="patient_address" withSecondLine />
    <CountedTextInput
      source="patient_address.access_notes"
      label="Access notes"
      max={NOTES_MAX}
      helperText="Gate codes, parking, entrance directions; passed to the phlebotomist"
    />
  </>
);

/**
 * A US postal address as the service takes it (street, optional second line, city, state, zip),
 * under `source`: the patient's address, an insurance subscriber's and an appointment request's
 * share these inputs.
 */
import { Box } from '@mui/material';
import { regex, required, SelectInput, TextInput } from 'react-admin';
import { US_STATES, ZIP_CODE } from '../choices';
import { Half, Row } from './layout';

export const ZIP_MESSAGE = 'Enter a zip code of 5 digits, optionally followed by a hyphen and 4 digits (12345 or 12345-6789)';
export const zipValidators = [required(), regex(ZIP_CODE, ZIP_MESSAGE)];
export const stateChoices = US_STATES.map((s) => ({ id: s, name: s }));

interface AddressInputsProps {
  /** Where the address lives in the form's values, e.g. `patient_address`. */
  source: string;
  /** Whose address, put before each label ("Subscriber" → "Subscriber city"); none for the patient's. */
  whose?: string;
  withSecondLine?: boolean;
  /** The appointment request names the zip `zip_code`; orders name it `zip`. */
  zipKey?: 'zip' | 'zip_code';
}

export const AddressInputs = ({ source, whose, withSecondLine = false, zipKey = 'zip' }: AddressInputsProps) => {
  const label = (name: string) => (whose ? `${whose} ${name.toLowerCase()}` : name);
  return (
    <>
      <TextInput source={`${source}.first_line`} label={label('Street address')} validate={required()} fullWidth />
      {withSecondLine && <TextInput source={`${source}.second_line`} label={label('Apartment, suite, unit')} fullWidth />}
      <Row>
        <Half>
          <TextInput source={`${source}.city`} label={label('City')} validate={required()} fullWidth />
        </Half>
        <Box sx={{ flex: '0 1 140px' }}>
          <SelectInput source={`${source}.state`} label={label('State')} choices={stateChoices} validate={required()} fullWidth />
        </Box>
        <Box sx={{ flex: '0 1 200px' }}>
          <TextInput source={`${source}.${zipKey}`} label={label('Zip code')} validate={zipValidators} fullWidth />
        </Box>
      </Row>
    </>
  );
};

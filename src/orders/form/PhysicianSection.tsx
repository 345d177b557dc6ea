/**
 * The ordering physician. Optional as a whole; once any of the three is given, all are needed. The
 * NPI's last digit is a Luhn check digit (the service checks it too), so a mistyped digit is
 * caught as you type rather than by the lab.
 */
import { useEffect } from 'react';
import { TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { isValidNpi } from '../../../server/contract';
import { Half, Row, SectionTitle } from './layout';

type Values = { physician?: { first_name?: string; last_name?: string; npi?: string } | null };
const given = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const anyGiven = (all: Values) => [all.physician?.first_name, all.physician?.last_name, all.physician?.npi].some(given);

const neededWithOthers = (what: string) => (value: unknown, all: Values) =>
  !given(value) && anyGiven(all) ? `Enter the physician's ${what}, or clear the physician's fields` : undefined;

export const NPI_FIELD_MESSAGE = 'Not a valid NPI: 10 digits, the last one a check digit. Check for a mistyped digit.';
export function checkNpi(value: unknown, all: Values): string | undefined {
  if (!given(value)) return neededWithOthers('NPI')(value, all);
  const npi = String(value).trim();
  if (!/^\d{10}$/.test(npi)) return 'An NPI has exactly 10 digits';
  return isValidNpi(npi) ? undefined : NPI_FIELD_MESSAGE;
}

/** The form checks on submit; a complete NPI is checked at once, so a typo shows as soon as you leave the field. */
function useCheckNpiAsTyped() {
  const npi: unknown = useWatch({ name: 'physician.npi' });
  const { trigger } = useFormContext();
  useEffect(() => {
    if (typeof npi === 'string' && npi.trim().length >= 10) void trigger('physician.npi');
  }, [npi, trigger]);
}

export const PhysicianSection = () => {
  useCheckNpiAsTyped();
  return (
    <>
      <SectionTitle>Ordering physician</SectionTitle>
      <Row>
        <Half>
          <TextInput source="physician.first_name" label="Physician given name" validate={neededWithOthers('given name')} fullWidth />
        </Half>
        <Half>
          <TextInput source="physician.last_name" label="Physician family name" validate={neededWithOthers('family name')} fullWidth />
        </Half>
        <Half>
          <TextInput
            source="physician.npi"
            label="NPI"
            validate={checkNpi}
            helperText="National Provider Identifier, 10 digits"
            inputProps={{ inputMode: 'numeric' }}
            fullWidth
          />
        </Half>
      </Row>
    </>
  );
};

/**
 * The consents the patient gave, of the kinds the service knows. Each is recorded with the
 * version of the consent text and the time the coordinator recorded it (set when the order is sent).
 */
import { CheckboxGroupInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { CONSENT_TYPES as CONSENT_TYPE_VALUES } from '../../../server/contract';
import { choicesOf } from '../choices';
import { SectionTitle } from './layout';

export const CONSENT_LABELS: Record<string, string> = {
  'terms-of-use': 'Terms of use',
  'telehealth-informed-consent': 'Telehealth informed consent',
  'mobile-terms-and-conditions': 'Mobile terms and conditions',
  'notice-of-privacy-practices': 'Notice of privacy practices',
  'privacy-policy': 'Privacy policy',
  'hipaa-authorization': 'HIPAA authorization',
} satisfies Record<(typeof CONSENT_TYPE_VALUES)[number], string>;

export const ConsentSection = () => {
  const chosen: unknown = useWatch({ name: 'consent_types' });
  return (
    <>
      <SectionTitle>Consents</SectionTitle>
      <CheckboxGroupInput source="consent_types" label="The patient has given" choices={choicesOf(CONSENT_LABELS)} helperText="Optional. Recorded with the time the order is placed." />
      {Array.isArray(chosen) && chosen.length > 0 && (
        <TextInput source="consent_version" label="Consent version" helperText="The version of the consent texts the patient agreed to, e.g. 2026-01" fullWidth />
      )}
    </>
  );
};

/**
 * Who pays. Billed to insurance, the insurance is required (the service refuses the order
 * without it): payor, member id, group and the patient's relation to the subscriber; when the
 * patient is not the subscriber, the subscriber's name, phone and address too.
 */
import { Box } from '@mui/material';
import { required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { INSURANCE_RELATIONSHIPS } from '../../../server/contract';
import { BILLING_TYPES, choicesOf } from '../choices';
import { Half, Row, SectionTitle } from './layout';
import { AddressInputs } from './AddressInputs';

const RELATIONSHIP_LABELS: Record<string, string> = {
  Self: 'Self (the patient is the subscriber)',
  Spouse: 'Spouse',
  Other: 'Other',
} satisfies Record<(typeof INSURANCE_RELATIONSHIPS)[number], string>;

const Subscriber = () => (
  <>
    <Row>
      <Half>
        <TextInput source="health_insurance.responsible_details.first_name" label="Subscriber given name" validate={required()} fullWidth />
      </Half>
      <Half>
        <TextInput source="health_insurance.responsible_details.last_name" label="Subscriber family name" validate={required()} fullWidth />
      </Half>
      <Half>
        <TextInput source="health_insurance.responsible_details.phone_number" label="Subscriber phone" validate={required()} fullWidth />
      </Half>
    </Row>
    <AddressInputs source="health_insurance.responsible_details.address" whose="Subscriber" />
  </>
);

const Insurance = () => {
  const relationship: unknown = useWatch({ name: 'health_insurance.responsible_relationship' });
  return (
    <Box role="group" aria-label="Health insurance" sx={{ width: '100%' }}>
      <Row>
        <Half>
          <TextInput source="health_insurance.payor_code" label="Payor code" helperText="The insurance company's payor id" validate={required()} fullWidth />
        </Half>
        <Half>
          <TextInput source="health_insurance.insurance_id" label="Member id" helperText="As on the insurance card" validate={required()} fullWidth />
        </Half>
        <Half>
          <TextInput source="health_insurance.group_id" label="Group number" helperText="Optional, as on the card" fullWidth />
        </Half>
        <Half>
          <SelectInput
            source="health_insurance.responsible_relationship"
            label="Patient's relation to the subscriber"
            choices={choicesOf(RELATIONSHIP_LABELS)}
            defaultValue="Self"
            validate={required()}
            fullWidth
          />
        </Half>
      </Row>
      {relationship && relationship !== 'Self' ? <Subscriber /> : null}
    </Box>
  );
};

export const BillingSection = () => {
  const billing: unknown = useWatch({ name: 'billing_type' });
  return (
    <>
      <SectionTitle>Billing</SectionTitle>
      <SelectInput source="billing_type" label="Billing type" choices={choicesOf(BILLING_TYPES)} emptyText="The account's default" fullWidth />
      {billing === 'commercial_insurance' && <Insurance />}
    </>
  );
};

/**
 * The order form for care coordinators, one section per file in ./form: the user, the tests, the
 * lab's questions, the patient and address, the ordering physician, diagnosis codes, billing (with
 * insurance), consents and clinical notes. Submitting sends a per-form idempotency key (see
 * idempotency.ts), waits for the answer (pessimistic), puts the service's validation errors on
 * their fields, and opens the new order.
 */
import { useCallback, useState } from 'react';
import { Alert } from '@mui/material';
import { AutocompleteInput, Create, HttpError, ReferenceInput, required, SimpleForm, useCreate, useNotify, useRedirect } from 'react-admin';
import { CountedTextInput } from '../components/CountedTextInput';
import { NOTES_MAX } from './choices';
import { toCreateOrderBody, toFormErrors, type OrderFormValues } from './createOrderBody';
import { AoeSection } from './form/AoeSection';
import { BillingSection } from './form/BillingSection';
import { ConsentSection } from './form/ConsentSection';
import { DiagnosisSection } from './form/DiagnosisSection';
import { useChosenAccount } from './form/labChoices';
import { SectionTitle } from './form/layout';
import { AddressSection, PatientSection } from './form/PatientSection';
import { PhysicianSection } from './form/PhysicianSection';
import { TestsSection } from './form/TestsSection';
import { idempotencyKey, newFormSessionId } from './idempotency';
import type { OrderRecord } from './types';

const DefaultNotesHint = () => {
  const account = useChosenAccount();
  if (!account?.default_clinical_notes) return null;
  return (
    <Alert severity="info" sx={{ mb: 1 }}>
      The requisition also carries this account&apos;s default notes: {account.default_clinical_notes}
    </Alert>
  );
};

/** Posts the order with the form's idempotency key; answers field errors for the form to show. */
function useSubmitOrder() {
  const notify = useNotify();
  const redirect = useRedirect();
  const [create] = useCreate<OrderRecord>();
  const [formSession] = useState(newFormSessionId);
  return useCallback(
    async (values: Record<string, unknown>) => {
      const body = toCreateOrderBody(values as OrderFormValues);
      try {
        // Through the dataProvider (react-admin's cache learns the order); pessimistic: the page
        // moves on once the BFF answered, with the key that makes a repeated submit one order.
        const order = await create(
          'orders',
          // The data is the service's create body (consents without their recorded time), not an order record.
          { data: body as unknown as Partial<OrderRecord>, meta: { idempotencyKey: idempotencyKey(formSession, body) } },
          { mutationMode: 'pessimistic', returnPromise: true },
        );
        notify('Order placed', { type: 'success' });
        if (order) redirect('show', 'orders', order.id);
        return undefined;
      } catch (error) {
        const errors = error instanceof HttpError ? (error.body as { errors?: Record<string, string> } | undefined)?.errors : undefined;
        const message = error instanceof Error && error.message ? error.message : 'The order could not be placed';
        const hasFieldErrors = Boolean(errors && Object.keys(errors).length);
        notify(hasFieldErrors ? `Check the highlighted fields. ${message}` : message, { type: 'error' });
        return hasFieldErrors && errors ? toFormErrors(errors, body) : undefined;
      }
    },
    [create, formSession, notify, redirect],
  );
}

export const OrderCreate = () => {
  const submit = useSubmitOrder();
  return (
    <Create title="New lab order">
      <SimpleForm onSubmit={submit} sx={{ maxWidth: 880 }}>
        <SectionTitle>User</SectionTitle>
        <ReferenceInput source="user_id" reference="users">
          <AutocompleteInput
            label="User (client user id)"
            optionText="client_user_id"
            filterToQuery={(q: string) => ({ q })}
            validate={required()}
            fullWidth
          />
        </ReferenceInput>

        <TestsSection />
        <AoeSection />
        <PatientSection />
        <AddressSection />
        <PhysicianSection />
        <DiagnosisSection />
        <BillingSection />
        <ConsentSection />

        <SectionTitle>Clinical notes</SectionTitle>
        <DefaultNotesHint />
        <CountedTextInput source="clinical_notes" label="Clinical notes" max={NOTES_MAX} helperText="Printed on the requisition" />
      </SimpleForm>
    </Create>
  );
};

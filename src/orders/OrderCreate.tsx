/**
 * The order form for care coordinators. Choosing a lab account limits the lab tests and add-on
 * markers to that account's lab; "Automatic" lets the service pick the account. Submitting sends a
 * per-form idempotency key (see idempotency.ts), waits for the answer (pessimistic), puts the
 * service's validation errors on their fields, and opens the new order.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Typography } from '@mui/material';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  Create,
  DateInput,
  email,
  HttpError,
  ReferenceArrayInput,
  ReferenceInput,
  regex,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useCreate,
  useGetList,
  useNotify,
  useRedirect,
} from 'react-admin';
// react-admin forms are react-hook-form forms: dependent inputs watch and set values with its hooks.
import { useFormContext, useWatch } from 'react-hook-form';
import { CountedTextInput } from '../components/CountedTextInput';
import type { LabAccountRecord } from '../lab-accounts/types';
import { BILLING_TYPES, COLLECTION_METHODS, choicesOf, GENDERS, LAB_NAMES, labelOf, NOTES_MAX, US_STATES, ZIP_CODE } from './choices';
import { toCreateOrderBody, toFormErrors, type OrderFormValues } from './createOrderBody';
import { idempotencyKey, newFormSessionId } from './idempotency';
import type { LabTestRecord, OrderRecord } from './types';

export const ZIP_MESSAGE = 'Enter a zip code of 5 digits, optionally followed by a hyphen and 4 digits (12345 or 12345-6789)';

const SectionTitle = ({ children }: { children: ReactNode }) => (
  <Typography variant="h6" component="h2" sx={{ mt: 2, mb: 1 }}>
    {children}
  </Typography>
);

/** Active lab accounts: the ones an order can be placed under. */
function useActiveLabAccounts() {
  const { data, isPending } = useGetList<LabAccountRecord>('lab-accounts', {
    filter: { status: 'active' },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'lab', order: 'ASC' },
  });
  return { accounts: data ?? [], isPending };
}

/** The chosen account, if any. */
function useChosenAccount(): LabAccountRecord | undefined {
  const { accounts } = useActiveLabAccounts();
  const accountId: unknown = useWatch({ name: 'lab_account_id' });
  return typeof accountId === 'string' && accountId ? accounts.find((a) => a.id === accountId) : undefined;
}

/** Active lab tests of a lab (all labs when `labSlug` is undefined). */
function useLabTests(labSlug: string | undefined) {
  const { data, isPending } = useGetList<LabTestRecord>('lab-tests', {
    filter: labSlug ? { lab_slug: labSlug, status: 'active' } : { status: 'active' },
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  return { tests: data ?? [], isPending };
}

const accountLabel = (a: LabAccountRecord) => `${a.account_name || a.provider_account_id} (${labelOf(LAB_NAMES, a.lab)})`;

const LabAccountInput = () => {
  const { accounts, isPending } = useActiveLabAccounts();
  return (
    <SelectInput
      source="lab_account_id"
      label="Lab account"
      isPending={isPending}
      choices={accounts.map((a) => ({ id: a.id, name: accountLabel(a) }))}
      emptyText="Automatic (the service picks an account)"
      helperText="Optional. Choosing one limits the lab tests and markers to its lab."
      fullWidth
    />
  );
};

const LabTestInput = () => {
  const account = useChosenAccount();
  const { tests, isPending } = useLabTests(account?.lab);
  const { setValue, getValues } = useFormContext();
  const labTestId: unknown = useWatch({ name: 'lab_test_id' });

  // A lab test of another lab than the newly chosen account's is no longer a valid choice.
  useEffect(() => {
    if (isPending || !labTestId) return;
    if (!tests.some((t) => t.id === labTestId)) setValue('lab_test_id', null, { shouldDirty: true });
  }, [isPending, tests, labTestId, setValue]);

  // Picking a lab test proposes its collection method, unless one was chosen already.
  const chosen = tests.find((t) => t.id === labTestId);
  useEffect(() => {
    if (chosen && !getValues('collection_method')) setValue('collection_method', chosen.method, { shouldDirty: true });
  }, [chosen, getValues, setValue]);

  return (
    <SelectInput
      source="lab_test_id"
      label="Lab test"
      isPending={isPending}
      choices={tests.map((t) => ({ id: t.id, name: account ? t.name : `${t.name} (${t.lab?.name ?? labelOf(LAB_NAMES, t.lab?.slug)})` }))}
      emptyText="None (add-on markers only)"
      helperText={account ? `Tests of ${labelOf(LAB_NAMES, account.lab)}, the chosen account's lab` : 'Tests of every lab'}
      fullWidth
    />
  );
};

const AddOnMarkersInput = () => {
  const account = useChosenAccount();
  const { tests } = useLabTests(account?.lab);
  const labTestId: unknown = useWatch({ name: 'lab_test_id' });
  const labSlug = account?.lab ?? tests.find((t) => t.id === labTestId)?.lab?.slug ?? undefined;
  const { setValue, getValues } = useFormContext();

  // Markers of another lab than the one now in play are dropped.
  const previous = useRef(labSlug);
  useEffect(() => {
    if (previous.current !== labSlug) {
      previous.current = labSlug;
      const current = getValues('order_set.add_on.marker_ids') as unknown;
      if (Array.isArray(current) && current.length) setValue('order_set.add_on.marker_ids', [], { shouldDirty: true });
    }
  }, [labSlug, getValues, setValue]);

  if (!labSlug) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Add-on markers: choose a lab account or a lab test first; markers are limited to that lab.
      </Typography>
    );
  }
  return (
    <ReferenceArrayInput
      source="order_set.add_on.marker_ids"
      reference="markers"
      filter={{ lab_slug: labSlug }}
      sort={{ field: 'id', order: 'ASC' }}
      perPage={50}
    >
      <AutocompleteArrayInput
        label={`Add-on markers (${labelOf(LAB_NAMES, labSlug)})`}
        optionText="name"
        filterToQuery={(q: string) => ({ q })}
        helperText="Optional. Markers ordered on top of the lab test."
        fullWidth
      />
    </ReferenceArrayInput>
  );
};

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
          { data: body, meta: { idempotencyKey: idempotencyKey(formSession, body) } },
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

const zip = [required(), regex(ZIP_CODE, ZIP_MESSAGE)];
const half = { flex: '1 1 240px' } as const;
const Row = ({ children }: { children: ReactNode }) => (
  <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, width: '100%' }}>{children}</Box>
);

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

        <SectionTitle>Tests</SectionTitle>
        <LabAccountInput />
        <LabTestInput />
        <AddOnMarkersInput />
        <Row>
          <Box sx={half}>
            <SelectInput source="collection_method" label="Collection method" choices={choicesOf(COLLECTION_METHODS)} emptyText="As the lab test says" fullWidth />
          </Box>
          <Box sx={half}>
            <SelectInput source="billing_type" label="Billing type" choices={choicesOf(BILLING_TYPES)} emptyText="The account's default" fullWidth />
          </Box>
        </Row>

        <SectionTitle>Patient</SectionTitle>
        <Row>
          <Box sx={half}>
            <TextInput source="patient_details.first_name" label="First name" validate={required()} fullWidth />
          </Box>
          <Box sx={half}>
            <TextInput source="patient_details.last_name" label="Last name" validate={required()} fullWidth />
          </Box>
          <Box sx={half}>
            <DateInput source="patient_details.dob" label="Date of birth" validate={required()} fullWidth />
          </Box>
          <Box sx={half}>
            <SelectInput source="patient_details.gender" label="Gender" choices={choicesOf(GENDERS)} validate={required()} fullWidth />
          </Box>
          <Box sx={half}>
            <TextInput source="patient_details.phone_number" label="Phone" validate={required()} fullWidth />
          </Box>
          <Box sx={half}>
            <TextInput source="patient_details.email" label="Email" type="email" validate={[required(), email()]} fullWidth />
          </Box>
        </Row>

        <SectionTitle>Address</SectionTitle>
        <Row>
          <Box sx={half}>
            <TextInput source="patient_address.receiver_name" label="Receiver name" helperText="Optional; the patient by default" fullWidth />
          </Box>
          <Box sx={half}>
            <TextInput source="patient_address.phone_number" label="Phone at the address" fullWidth />
          </Box>
        </Row>
        <TextInput source="patient_address.first_line" label="Street address" validate={required()} fullWidth />
        <TextInput source="patient_address.second_line" label="Apartment, suite, unit" fullWidth />
        <Row>
          <Box sx={half}>
            <TextInput source="patient_address.city" label="City" validate={required()} fullWidth />
          </Box>
          <Box sx={{ flex: '0 1 140px' }}>
            <SelectInput
              source="patient_address.state"
              label="State"
              choices={US_STATES.map((s) => ({ id: s, name: s }))}
              validate={required()}
              fullWidth
            />
          </Box>
          <Box sx={{ flex: '0 1 200px' }}>
            <TextInput source="patient_address.zip" label="Zip code" validate={zip} fullWidth />
          </Box>
        </Row>
        <CountedTextInput
          source="patient_address.access_notes"
          label="Access notes"
          max={NOTES_MAX}
          helperText="Gate codes, parking, entrance directions; passed to the phlebotomist"
        />

        <SectionTitle>Clinical notes</SectionTitle>
        <DefaultNotesHint />
        <CountedTextInput source="clinical_notes" label="Clinical notes" max={NOTES_MAX} helperText="Printed on the requisition" />
      </SimpleForm>
    </Create>
  );
};

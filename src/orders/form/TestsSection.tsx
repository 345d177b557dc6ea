/**
 * The tests of an order: lab account, lab test and add-on markers. Choosing an account limits the
 * tests and markers to its lab; "Automatic" lets the service pick the account. Tests of a lab whose
 * only account is pending approval are shown disabled with the reason.
 */
import { useEffect, useRef } from 'react';
import { Typography } from '@mui/material';
import { AutocompleteArrayInput, ReferenceArrayInput, SelectInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { LabAccountRecord } from '../../lab-accounts/types';
import { choicesOf, COLLECTION_METHODS, LAB_NAMES, labelOf } from '../choices';
import { useActiveLabAccounts, useChosenAccount, useLabTests, usePendingOnlyLabs } from './labChoices';
import { SectionTitle } from './layout';

export const PENDING_REASON = 'lab account pending approval';

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
  const pendingLabs = usePendingOnlyLabs();
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

  const choices = tests.map((t) => {
    const name = account ? t.name : `${t.name} (${t.lab?.name ?? labelOf(LAB_NAMES, t.lab?.slug)})`;
    const pending = Boolean(t.lab?.slug && pendingLabs.has(t.lab.slug));
    return { id: t.id, name: pending ? `${name} — ${PENDING_REASON}` : name, disabled: pending };
  });
  return (
    <SelectInput
      source="lab_test_id"
      label="Lab test"
      isPending={isPending}
      choices={choices}
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

export const TestsSection = () => (
  <>
    <SectionTitle>Tests</SectionTitle>
    <LabAccountInput />
    <LabTestInput />
    <AddOnMarkersInput />
    <SelectInput source="collection_method" label="Collection method" choices={choicesOf(COLLECTION_METHODS)} emptyText="As the lab test says" fullWidth />
  </>
);

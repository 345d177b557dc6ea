/**
 * What the order form offers from the lab catalogue: the team's lab accounts, the chosen one, the
 * lab tests of a lab, and the labs whose accounts are all still pending approval (their tests are
 * shown, disabled, instead of being offered and then refused by the service).
 */
import { useGetList } from 'react-admin';
// react-admin forms are react-hook-form forms: dependent inputs watch values with its hooks.
import { useWatch } from 'react-hook-form';
import type { LabAccountRecord } from '../../lab-accounts/types';
import type { LabTestRecord } from '../types';

const accountsQuery = (status: string) => ({
  filter: { status },
  pagination: { page: 1, perPage: 100 },
  sort: { field: 'lab', order: 'ASC' as const },
});

/** Active lab accounts: the ones an order can be placed under. */
export function useActiveLabAccounts() {
  const { data, isPending } = useGetList<LabAccountRecord>('lab-accounts', accountsQuery('active'));
  return { accounts: data ?? [], isPending };
}

/** Labs with a pending account and no active one: nothing can be ordered there yet. */
export function usePendingOnlyLabs(): Set<string> {
  const { accounts } = useActiveLabAccounts();
  const { data: pending } = useGetList<LabAccountRecord>('lab-accounts', accountsQuery('pending'));
  const active = new Set(accounts.map((a) => a.lab));
  return new Set((pending ?? []).map((a) => a.lab).filter((lab) => !active.has(lab)));
}

/** The chosen account, if any. */
export function useChosenAccount(): LabAccountRecord | undefined {
  const { accounts } = useActiveLabAccounts();
  const accountId: unknown = useWatch({ name: 'lab_account_id' });
  return typeof accountId === 'string' && accountId ? accounts.find((a) => a.id === accountId) : undefined;
}

/** Active lab tests of a lab (all labs when `labSlug` is undefined). */
export function useLabTests(labSlug: string | undefined) {
  const { data, isPending } = useGetList<LabTestRecord>('lab-tests', {
    filter: labSlug ? { lab_slug: labSlug, status: 'active' } : { status: 'active' },
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  return { tests: data ?? [], isPending };
}

/** The chosen lab test's record, once the lab tests are known. */
export function useChosenLabTest(): LabTestRecord | undefined {
  const account = useChosenAccount();
  const { tests } = useLabTests(account?.lab);
  const labTestId: unknown = useWatch({ name: 'lab_test_id' });
  return tests.find((t) => t.id === labTestId);
}

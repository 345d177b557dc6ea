/**
 * Bulk actions of the needs-attention list (`orders:triage`): claim or resolve the selected orders.
 * The BFF does each order on its own, so one refused order (claimed by someone else, say) is
 * reported and the others still go through; the notification says how many did.
 */
import { useState } from 'react';
import { Button } from '@mui/material';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useListContext, useNotify, useUnselectAll } from 'react-admin';
import type { BulkResult } from '../../../server/bff/api';
import type { LabdeskDataProvider } from '../../providers/types';
import { problemOf } from './problemOf';
import { ResolveDialog, type ResolveValues } from './ResolveDialog';

/** "Claimed 2 of 3. Not done: Claimed by Lab Ops: take it over to work on it." */
export function bulkSummary(verb: string, result: BulkResult): { message: string; type: 'success' | 'warning' } {
  const done = result.results.filter((r) => r.ok).length;
  const failed = result.results.filter((r) => !r.ok);
  const reasons = [...new Set(failed.map((r) => r.message ?? `error ${r.status}`))];
  return {
    message: `${verb} ${done} of ${result.results.length}.${failed.length ? ` Not done (${failed.length}): ${reasons.join('; ')}` : ''}`,
    type: failed.length ? 'warning' : 'success',
  };
}

function useBulk() {
  const { selectedIds } = useListContext();
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const unselectAll = useUnselectAll('orders');
  const queryClient = useQueryClient();
  const after = async (verb: string, result: BulkResult) => {
    const { message, type } = bulkSummary(verb, result);
    notify(message, { type, autoHideDuration: type === 'warning' ? 10_000 : undefined });
    unselectAll();
    await queryClient.invalidateQueries({ queryKey: ['orders'] });
  };
  return { ids: selectedIds.map(String), dataProvider, notify, after };
}

export const BulkClaimButton = () => {
  const { ids, dataProvider, notify, after } = useBulk();
  const [busy, setBusy] = useState(false);
  const claim = async () => {
    setBusy(true);
    try {
      await after('Claimed', await dataProvider.bulkClaimOrders(ids));
    } catch (error) {
      notify(`Could not claim the orders: ${problemOf(error).message}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<AssignmentIndIcon />} disabled={busy} onClick={() => void claim()}>
      Claim
    </Button>
  );
};

export const BulkResolveButton = () => {
  const { ids, dataProvider, notify, after } = useBulk();
  const [open, setOpen] = useState(false);
  const resolve = async (values: ResolveValues) => {
    try {
      const result = await dataProvider.bulkResolveOrders(ids, values);
      setOpen(false);
      await after('Resolved', result);
      return undefined;
    } catch (error) {
      const problem = problemOf(error);
      notify(`Could not resolve the orders: ${problem.message}`, { type: 'error' });
      return problem.errors;
    }
  };
  return (
    <>
      <Button size="small" startIcon={<CheckCircleIcon />} onClick={() => setOpen(true)}>
        Resolve…
      </Button>
      <ResolveDialog
        open={open}
        title={`Resolve ${ids.length} order${ids.length === 1 ? '' : 's'}?`}
        explanation="Each leaves the needs-attention queue until its status changes again. Orders that cannot be resolved are listed afterwards; the others are still resolved."
        onClose={() => setOpen(false)}
        onResolve={resolve}
      />
    </>
  );
};

export const TriageBulkActions = () => (
  <>
    <BulkClaimButton />
    <BulkResolveButton />
  </>
);

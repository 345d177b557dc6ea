/**
 * The order page's triage card (`orders:triage`): who works on the order (claim, release, take
 * over), the staff notes (read and add), resolving with an outcome and a note, and for a lost kit
 * reshipping or recreating it through the service. All of it is the BFF's own record: nothing here
 * is sent to the lab.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Divider, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import ReplayIcon from '@mui/icons-material/Replay';
import { Link, useCreatePath, useGetIdentity, useNotify, usePermissions } from 'react-admin';
import { NEEDS_ATTENTION_STATUSES, TRIAGE_NOTE_MAX, TRIAGE_OUTCOME_LABELS, type TriageOutcome } from '../../../server/bff/api';
import { can } from '../../auth/permissions';
import { formatInstant } from '../OrderTimeline';
import type { OrderRecord } from '../types';
import { problemOf } from './problemOf';
import { ReplaceKitDialog } from './ReplaceKitDialog';
import { ResolveDialog, type ResolveValues } from './ResolveDialog';
import { useOrderTriage } from './useOrderTriage';

const who = (s: { name: string; email: string } | null | undefined) => (s ? s.name || s.email : 'someone');

/** A test kit in a status that needs attention (lost, failed delivery, problem in transit). */
export const isKitNeedingAttention = (order: OrderRecord) =>
  order.lab_test?.method === 'testkit' && (NEEDS_ATTENTION_STATUSES as readonly string[]).includes(order.low_level_status ?? '');

export const TriagePanel = ({ order }: { order: OrderRecord }) => {
  const { permissions } = usePermissions();
  if (!can(permissions, 'orders:triage')) return null;
  return <TriageCard order={order} />;
};

const TriageCard = ({ order }: { order: OrderRecord }) => {
  const orderId = String(order.id);
  const { dataProvider, triage, notes, refresh } = useOrderTriage(orderId);
  const { identity } = useGetIdentity();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [resolving, setResolving] = useState(false);
  const [replacing, setReplacing] = useState<'reship' | 'recreate' | null>(null);
  const createPath = useCreatePath();
  const [noteText, setNoteText] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);

  const run = async (what: string, call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await call();
      notify(done, { type: 'success' });
    } catch (error) {
      notify(`Could not ${what}: ${problemOf(error).message}`, { type: 'error' });
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  const state = triage.data;
  const mine = state?.owner && identity && state.owner.id === identity.id;
  const someoneElse = state?.owner && !mine;

  const resolve = async ({ outcome, note }: ResolveValues) => {
    try {
      await dataProvider.resolveOrder(orderId, { outcome, note });
      setResolving(false);
      notify('Resolved: the order leaves the queue until its status changes', { type: 'success' });
      await refresh();
      return undefined;
    } catch (error) {
      const problem = problemOf(error);
      notify(`Could not resolve the order: ${problem.message}`, { type: 'error' });
      return problem.errors;
    }
  };

  const addNote = async () => {
    const body = noteText.trim();
    if (!body) return setNoteError('Write the note first');
    if (body.length > TRIAGE_NOTE_MAX) return setNoteError(`At most ${TRIAGE_NOTE_MAX} characters`);
    setNoteError(null);
    setBusy(true);
    try {
      await dataProvider.addOrderNote(orderId, body);
      setNoteText('');
      await refresh();
    } catch (error) {
      const problem = problemOf(error);
      setNoteError(problem.errors?.body ?? problem.message);
    } finally {
      setBusy(false);
    }
  };

  const replace = async (action: 'reship' | 'recreate', note: string) => {
    try {
      const { order: placed } = await dataProvider.replaceOrderKit(orderId, action, note);
      setReplacing(null);
      notify(action === 'reship' ? `A new kit is on its way: order ${placed.id.slice(0, 8)} is placed` : `The order is recreated as order ${placed.id.slice(0, 8)}`, { type: 'success' });
      await refresh();
      return undefined;
    } catch (error) {
      const problem = problemOf(error);
      notify(`Could not ${action === 'reship' ? 'reship the kit' : 'recreate the order'}: ${problem.message}`, { type: 'error' });
      return problem.errors;
    }
  };

  return (
    <Card component="section" aria-label="Triage">
      <CardHeader title="Triage" subheader="Staff work on this order: never sent to the lab" />
      <CardContent sx={{ pt: 0 }}>
        {triage.isError ? (
          <Alert severity="error">Could not load the triage state: {problemOf(triage.error).message}. Reload the page to try again.</Alert>
        ) : (
          <Stack spacing={1.5}>
            <Typography variant="body2" data-testid="triage-owner">
              {triage.isPending ? 'Loading…' : state?.owner ? `Claimed by ${mine ? 'you' : who(state.owner)}${state.claimed_at ? ` since ${formatInstant(state.claimed_at)}` : ''}` : 'Nobody works on this order yet.'}
            </Typography>
            {state?.outcome && (
              <Alert severity={state.open ? 'warning' : 'success'} data-testid="triage-resolution">
                {TRIAGE_OUTCOME_LABELS[state.outcome as TriageOutcome] ?? state.outcome} by {who(state.resolved_by)}
                {state.resolved_at ? ` on ${formatInstant(state.resolved_at)}` : ''}: {state.resolution_note}
                {state.open ? ' (the status changed since: it needs attention again)' : ''}
                {state.replacement_order_id && (
                  <>
                    {' '}
                    <Link to={createPath({ resource: 'orders', id: state.replacement_order_id, type: 'show' })}>Open the new order</Link>
                  </>
                )}
              </Alert>
            )}
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              {!state?.owner && (
                <Button variant="contained" size="small" startIcon={<AssignmentIndIcon />} disabled={busy || triage.isPending} onClick={() => run('claim the order', () => dataProvider.claimOrder(orderId), 'You work on this order now')}>
                  Claim
                </Button>
              )}
              {mine && (
                <Button size="small" disabled={busy} onClick={() => run('release the order', () => dataProvider.unclaimOrder(orderId), 'Released')}>
                  Release
                </Button>
              )}
              {someoneElse && (
                <Button size="small" disabled={busy} onClick={() => run('take the order over', () => dataProvider.claimOrder(orderId, true), 'You work on this order now')}>
                  Take over from {who(state?.owner)}
                </Button>
              )}
              <Button size="small" variant="outlined" startIcon={<CheckCircleIcon />} disabled={busy || triage.isPending} onClick={() => setResolving(true)}>
                Resolve…
              </Button>
              {isKitNeedingAttention(order) && (
                <>
                  <Button size="small" variant="outlined" startIcon={<LocalShippingIcon />} disabled={busy} onClick={() => setReplacing('reship')}>
                    Reship kit
                  </Button>
                  <Button size="small" variant="outlined" startIcon={<ReplayIcon />} disabled={busy} onClick={() => setReplacing('recreate')}>
                    Recreate order
                  </Button>
                </>
              )}
            </Stack>
          </Stack>
        )}
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2">Notes</Typography>
        {notes.isError ? (
          <Alert severity="error">Could not load the notes: {problemOf(notes.error).message}. Reload the page to try again.</Alert>
        ) : notes.data?.length ? (
          <List dense aria-label="Staff notes">
            {notes.data.map((n) => (
              <ListItem key={n.id} disableGutters>
                <ListItemText primary={n.body} secondary={`${who(n.author)} · ${formatInstant(n.created_at)}`} slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap' } } }} />
              </ListItem>
            ))}
          </List>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
            {notes.isPending ? 'Loading…' : 'No notes yet. Add what you found out or did, for whoever picks this up next.'}
          </Typography>
        )}
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <TextField
            label="Add a note"
            size="small"
            multiline
            fullWidth
            value={noteText}
            onChange={(e) => setNoteText(e.target.value)}
            error={noteError !== null}
            helperText={noteError ?? `${noteText.length} / ${TRIAGE_NOTE_MAX}`}
          />
          <Button variant="outlined" disabled={busy} onClick={() => void addNote()}>
            Add note
          </Button>
        </Box>
      </CardContent>
      <ResolveDialog
        open={resolving}
        title="Resolve this order?"
        explanation="It leaves the needs-attention queue until its status changes again."
        onClose={() => setResolving(false)}
        onResolve={resolve}
      />
      <ReplaceKitDialog action={replacing} onClose={() => setReplacing(null)} onConfirm={replace} />
    </Card>
  );
};

/**
 * The extracted data beside the document: report details and the results table, doubtful cells
 * tinted with their reasons. For a reviewer, on a job waiting for review, every cell can be
 * corrected and the report approved or rejected, by mouse or keyboard; everyone else (and every
 * job past review) sees the same table read-only. It stays mounted across the review, so the
 * outcome and "Next in queue" remain on screen once the job has moved on.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Divider, LinearProgress, Stack, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { isAwaitingReview } from '../jobState';
import type { ParserJobRecord, ResultMetadata } from '../types';
import { ApproveDialog } from './ApproveDialog';
import { cellKey, doubtfulCells, doubtsOfRows } from './doubts';
import { MetadataFields, missingDetails } from './MetadataFields';
import { patientCheckOf, PatientMatch } from './PatientMatch';
import { patientCheckMessage } from '../../../server/contract/patientIdentity';
import { RejectDialog } from './RejectDialog';
import { ReportReasons } from './ReportReasons';
import type { DraftField } from './ResultRow';
import { ResultsTable } from './ResultsTable';
import { ReviewOutcome } from './ReviewOutcome';
import { changeCount, correctedMetadata, correctedResult, draftErrors, draftOf, type Draft } from './reviewDraft';
import { ShortcutHelp } from './ShortcutHelp';
import { useReviewKeys } from './useReviewKeys';
import { useSubmitReview } from './useSubmitReview';

const NO_ERRORS: Record<string, string> = {};

type WithData = ParserJobRecord & { data: NonNullable<ParserJobRecord['data']> };

/** The first cell an error is about ("results.3.value" → "3:value"). */
function cellOfError(field: string): string | null {
  const match = /^results\.(\d+)\.([a-z_]+)/.exec(field);
  if (!match) return null;
  const column = match[2] === 'min_reference_range' || match[2] === 'max_reference_range' ? 'range' : match[2];
  return column === 'test_name' || column === 'value' || column === 'units' || column === 'range' ? cellKey(Number(match[1]), column) : null;
}

export const ReviewWorkspace = ({ job, canReview }: { job: WithData; canReview: boolean }) => {
  const [draft, setDraft] = useState<Draft>(() => draftOf(job.data));
  const [attempted, setAttempted] = useState(false);
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const { submit, isPending, outcome, problem } = useSubmitReview(job.id);
  const tableRef = useRef<HTMLDivElement>(null);
  const editable = canReview && !outcome && !problem?.notReviewable && isAwaitingReview(job);

  // Read-only, the page shows what the job holds now (after approval: the corrected results).
  const shown = useMemo(() => (editable ? draft : draftOf(job.data)), [editable, draft, job.data]);
  const doubts = useMemo(() => doubtsOfRows(job.review_reasons, shown.results.length), [job.review_reasons, shown.results.length]);
  const targets = useMemo(() => doubtfulCells(doubts), [doubts]);
  // Until the first approval attempt, one stable empty object: rows are memoised, and a fresh
  // object per keystroke would re-render every row of a long report.
  const errors = useMemo(
    () => (attempted && editable ? { ...draftErrors(draft), ...problem?.errors } : problem?.errors ?? NO_ERRORS),
    [attempted, editable, draft, problem],
  );

  const onCellChange = useCallback((index: number, field: DraftField, value: string) => {
    setDraft((d) => ({ ...d, results: d.results.map((r, i) => (i === index ? { ...r, [field]: value } : r)) }));
  }, []);
  const onMetadataChange = useCallback((key: keyof ResultMetadata, value: string) => {
    setDraft((d) => ({ ...d, metadata: { ...d.metadata, [key]: value } as Draft['metadata'] }));
  }, []);

  const askApprove = useCallback(() => {
    setAttempted(true);
    const found = Object.keys(draftErrors(draft));
    if (found.length) {
      const first = found.map(cellOfError).find(Boolean) ?? null;
      if (first) tableRef.current?.querySelector<HTMLElement>(`[data-cell="${first}"]`)?.focus();
      return;
    }
    setDialog('approve');
  }, [draft]);

  // Off while a dialog is open (it has its own keys) and while a review is on its way (no second one).
  const { focusCell } = useReviewKeys({ targets, container: tableRef, enabled: editable && dialog === null && !isPending, onApprove: askApprove });

  // Focus lands where the work is: the first doubtful cell (else the first value), once.
  const focused = useRef(false);
  useEffect(() => {
    if (!editable || focused.current) return;
    focused.current = true;
    focusCell(targets[0] ?? cellKey(0, 'value'));
  }, [editable, focusCell, targets]);

  const check = useMemo(() => patientCheckOf(shown.metadata, job.patient_check), [shown.metadata, job.patient_check]);
  // The service's refusal (a check it made on newer data) counts as much as ours.
  // A report read as someone else, or one that cannot be compared with anyone, is confirmed before approving.
  const mismatch = (check && patientCheckMessage(check)) ?? problem?.errors.confirm_patient_mismatch ?? null;

  const approve = (notes: string, confirmMismatch: boolean) => {
    setDialog(null);
    submit({
      decision: 'approve',
      metadata: correctedMetadata(draft.metadata),
      results: draft.results.map(correctedResult),
      ...(notes ? { notes } : {}),
      ...(confirmMismatch ? { confirm_patient_mismatch: true } : {}),
    });
  };
  const reject = (notes: string) => {
    setDialog(null);
    submit({ decision: 'reject', notes });
  };

  const localErrorCount = attempted && editable ? Object.keys(draftErrors(draft)).length : 0;
  const incomplete = Boolean(job.review_reasons?.report.some((r) => r.code === 'metadata_incomplete'));
  // Every tinted cell counts: the results' doubtful cells and the report details not found.
  const tinted = targets.length + missingDetails(shown.metadata, incomplete).length;

  return (
    <Card component="section" aria-label="Extracted results">
      <CardHeader
        title="Extracted results"
        subheader={editable ? 'Check the tinted cells against the document; correct what was misread.' : undefined}
        action={
          editable && (
            <Stack direction="row" spacing={1} sx={{ mt: 1, mr: 1 }}>
              <Button variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => setDialog('reject')} disabled={isPending}>
                Reject
              </Button>
              <Button variant="contained" color="success" startIcon={<CheckIcon />} onClick={askApprove} disabled={isPending} aria-keyshortcuts="Control+Enter Meta+Enter">
                Approve
              </Button>
            </Stack>
          )
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {isPending && <LinearProgress aria-label="Saving the review" sx={{ mb: 2 }} />}
        {outcome && <ReviewOutcome job={outcome} />}
        {problem && (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {problem.message}
          </Alert>
        )}
        {localErrorCount > 0 && (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {`Fix the ${localErrorCount === 1 ? 'cell' : `${localErrorCount} cells`} marked in red before approving.`}
          </Alert>
        )}
        {(editable || job.needs_human_review) && (
          <ReportReasons reasons={job.review_reasons?.report ?? []} doubtfulCells={tinted} reviewed={job.is_reviewed} />
        )}
        {(editable || job.needs_human_review) && <PatientMatch check={check} />}
        {job.review?.patient_mismatch_confirmed && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            Approved although the name or date of birth differed from the patient's orders: the reviewer confirmed the report is theirs.
          </Alert>
        )}
        {job.review?.patient_identity_confirmed && !job.review.patient_mismatch_confirmed && (
          <Alert severity="info" sx={{ mb: 2 }}>
            Approved without orders to compare the report with: the reviewer confirmed the report is this patient's.
          </Alert>
        )}
        {editable && <ShortcutHelp />}
        <Box sx={{ my: 2 }}>
          <MetadataFields metadata={shown.metadata} editable={editable} incomplete={incomplete} onChange={onMetadataChange} />
        </Box>
        <Divider />
        <ResultsTable ref={tableRef} rows={shown.results} doubts={doubts} errors={errors} editable={editable} onChange={onCellChange} />
        {!editable && !outcome && !canReview && job.stage === 'awaiting_review' && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            A reviewer checks these values before they count. Your role can read them, not review them.
          </Typography>
        )}
      </CardContent>
      {dialog === 'approve' && (
      <ApproveDialog
        open
        results={draft.results.length}
        changes={changeCount(draft)}
        busy={isPending}
        mismatch={mismatch}
        onConfirm={approve}
        onClose={() => setDialog(null)}
      />
      )}
      {dialog === 'reject' && <RejectDialog open busy={isPending} onConfirm={reject} onClose={() => setDialog(null)} />}
    </Card>
  );
};

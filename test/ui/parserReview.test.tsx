/**
 * Reviewing a parsed lab report against the fake BFF: doubtful cells tinted with their reasons,
 * keyboard travel between them, corrections (a value, a range, another LOINC match), approval with
 * the corrected results, rejection with notes, read-only roles, and a job reviewed meanwhile.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  awaitingReview,
  CSRF_TOKEN,
  DOUBTFUL_REPORT,
  makeParserJob,
  SAMPLE_USERS,
  type FakeBffOptions,
  type RecordedRequest,
  type StaffAccount,
} from './fakeBff';
import { renderApp } from './renderApp';

// pdf.js needs a canvas jsdom does not have: the viewer must fall back, not break the page.
vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: {},
  getDocument: () => ({ promise: Promise.reject(new Error('no canvas here')), destroy: async () => {} }),
}));

type User = ReturnType<typeof userEvent.setup>;

const account = (role: string): StaffAccount => ({
  email: `${role}@labdesk.test`,
  password: 'a long enough password',
  user: { id: `staff-${role}`, email: `${role}@labdesk.test`, name: role, role },
});
const REVIEWER = account('reviewer');
const COORDINATOR = account('coordinator');

const JOB = awaitingReview({ id: '9a9a9a9a-0000-4000-8000-000000000001', created_at: '2026-05-01T09:00:00.000Z' });
const NEXT = awaitingReview({ id: '9a9a9a9a-0000-4000-8000-000000000002', created_at: '2026-05-02T09:00:00.000Z', file: { name: 'second.png', content_type: 'image/png', size: 68 } });

function openJob(staff: StaffAccount = REVIEWER, options: FakeBffOptions = {}, job = JOB) {
  return renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [staff], parserJobs: [JOB, NEXT], ...options }, `/parser-jobs/${job.id}/show`);
}

const results = () => screen.findByRole('region', { name: 'Extracted results' });
const input = (name: string) => screen.getByRole('textbox', { name });
/** The cell (or, for the test name and LOINC, the part of the cell) an input belongs to. */
const cellOf = (el: HTMLElement) => el.closest<HTMLElement>('[data-column]')!;
const reviews = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/review'));

async function replace(user: User, name: string, value: string) {
  const el = input(name);
  await user.clear(el);
  await user.type(el, value);
}

describe('reviewing a report', () => {
  it('tints every doubtful cell with its reason, and starts on the first one', async () => {
    openJob();
    const region = await results();
    // Report-level reasons on top, with the count of cells to check.
    const why = within(region).getByRole('region', { name: 'Why this report needs review' });
    expect(within(why).getByText('5 doubtful cells to check')).toBeInTheDocument();
    expect(within(why).getByText('The scan was read with low overall confidence (62%).')).toBeInTheDocument();

    // Each reason on the cell it concerns.
    const potassium = input('Potassium value');
    expect(cellOf(potassium)).toHaveAttribute('data-doubtful', 'true');
    expect(potassium).toHaveAccessibleDescription('45 has no decimals; Potassium is normally printed with 1.');
    expect(cellOf(input('Sodium units'))).toHaveAttribute('data-doubtful', 'true');
    expect(input('Sodium units')).toHaveAccessibleDescription('mmol/ is not a unit Sodium is reported in.');
    expect(cellOf(input('TSH range low'))).toHaveAttribute('data-doubtful', 'true');
    expect(input('TSH range low')).toHaveAccessibleDescription('The reference range 4.5-0.4 runs backwards.');
    const a1c = screen.getByRole('combobox', { name: 'Hemoglobin A1c LOINC' });
    expect(cellOf(a1c)).toHaveAttribute('data-doubtful', 'true');
    expect(a1c).toHaveAccessibleDescription('The test name was matched to Hemoglobin A1c only approximately.');
    // A code this dashboard does not know marks the whole row, never disappears.
    expect(screen.getByRole('row', { name: 'Vitamin D' })).toHaveAttribute('data-doubtful-row', 'true');
    expect(input('Vitamin D value')).toHaveAccessibleDescription('Something this dashboard has never heard of.');
    expect(screen.getByText('Something this dashboard has never heard of.')).toBeVisible();
    // Values read without doubt are not tinted.
    expect(cellOf(input('Glucose value'))).not.toHaveAttribute('data-doubtful');
    expect(cellOf(input('Potassium units'))).not.toHaveAttribute('data-doubtful');
    // An interpretation this dashboard does not know: raw.
    expect(within(screen.getByRole('row', { name: 'Vitamin D' })).getByText('borderline_watch')).toBeInTheDocument();

    // The shortcuts are on screen, and the focus is where the work is.
    expect(screen.getByRole('region', { name: 'Keyboard shortcuts' })).toHaveTextContent(/Ctrl\+Enter\s*approve/);
    await waitFor(() => expect(potassium).toHaveFocus());
    // The document beside it.
    const doc = screen.getByRole('region', { name: 'Original document' });
    expect(within(doc).getByRole('img', { name: /The uploaded report/ })).toHaveAttribute('src', `/api/parser-jobs/${JOB.id}/file`);
  });

  it('jumps between doubtful cells with Enter and Alt+arrows, and back', async () => {
    const { user } = openJob();
    await results();
    await waitFor(() => expect(input('Potassium value')).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(input('Sodium units')).toHaveFocus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(screen.getByRole('combobox', { name: 'Hemoglobin A1c LOINC' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(input('TSH range low')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(input('Vitamin D value')).toHaveFocus(); // the row-level doubt
    await user.keyboard('{Enter}');
    expect(input('Potassium value')).toHaveFocus(); // wraps around
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(input('Vitamin D value')).toHaveFocus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(input('TSH range low')).toHaveFocus();
    // Tab still goes cell by cell.
    await user.tab();
    expect(input('TSH range high')).toHaveFocus();
    // Outside the cells (here: a button), n and p do the same.
    screen.getByRole('button', { name: 'Zoom in' }).focus();
    await user.keyboard('n');
    expect(input('Potassium value')).toHaveFocus();
    screen.getByRole('button', { name: 'Zoom in' }).focus();
    await user.keyboard('p');
    expect(input('Vitamin D value')).toHaveFocus();
  });

  it('approves with the corrections after a confirmation, shows the outcome and offers the next report', async () => {
    const { user, bff } = openJob();
    await results();
    await waitFor(() => expect(input('Potassium value')).toHaveFocus());
    await replace(user, 'Potassium value', '4.5');
    await replace(user, 'Sodium units', 'mmol/L');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Hemoglobin A1c LOINC' }), '17856-6');
    await replace(user, 'TSH range low', '0.4');
    await replace(user, 'TSH range high', '4.5');
    await replace(user, 'Patient last name', 'King');
    expect(within(cellOf(input('Potassium value'))).getByText('Corrected')).toBeInTheDocument();

    // Ctrl+Enter asks first; nothing is sent before the confirmation.
    await user.keyboard('{Control>}{Enter}{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Approve these results?' });
    expect(dialog).toHaveTextContent('6 results will be filed for the patient, with your 5 corrections.');
    expect(reviews(bff.requests)).toHaveLength(0);
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toHaveFocus();
    await user.keyboard('{Enter}');

    const outcome = await screen.findByRole('status', {}, { timeout: 4000 });
    await waitFor(() => expect(outcome).toHaveTextContent('Approved'));
    expect(await within(screen.getByLabelText('Job status')).findByText('Done')).toBeInTheDocument();
    // Read-only now, showing what was filed.
    expect(screen.queryByRole('textbox', { name: 'Potassium value' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: 'Potassium' })).getByText('4.5')).toBeInTheDocument();

    const [sent] = reviews(bff.requests);
    expect(sent!.headers.get('x-csrf-token')).toBe(CSRF_TOKEN);
    const body = sent!.body as { decision: string; metadata: Record<string, string>; results: Record<string, unknown>[] };
    expect(body.decision).toBe('approve');
    expect(body.metadata).toMatchObject({ patient_first_name: 'Ada', patient_last_name: 'King', specimen_number: 'SP-1001' });
    expect(body.results).toHaveLength(6);
    // Untouched results go as read.
    expect(body.results[0]).toEqual(DOUBTFUL_REPORT.data.results[0]);
    // A corrected value loses the flags worked out from the misread one.
    expect(body.results[1]).toMatchObject({ test_name: 'Potassium', value: '4.5', units: 'mmol/L', min_reference_range: 3.5, max_reference_range: 5.1 });
    expect(body.results[1]).not.toHaveProperty('is_above_max_range');
    expect(body.results[1]).not.toHaveProperty('interpretation');
    expect(body.results[2]).toMatchObject({ units: 'mmol/L', interpretation: 'normal' });
    expect(body.results[3]!.loinc_matches).toEqual([expect.objectContaining({ loinc_code: '17856-6' })]);
    expect(body.results[4]).toMatchObject({ min_reference_range: 0.4, max_reference_range: 4.5 });

    // On to the oldest report still waiting.
    const next = await screen.findByRole('button', { name: 'Next in queue' });
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    expect(await screen.findByText('second.png (68 bytes)')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Potassium value' })).toHaveValue('45'));
  });

  it('refuses to approve while a cell holds something that is not a number', async () => {
    const { user, bff } = openJob();
    await results();
    await replace(user, 'TSH range low', '0,4');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Fix the cell marked in red before approving.')).toBeInTheDocument();
    expect(screen.getByText('Low: Not a number (use a dot for decimals)')).toBeInTheDocument();
    expect(input('TSH range low')).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(reviews(bff.requests)).toHaveLength(0);
  });

  it('asks for notes before rejecting', async () => {
    const { user, bff } = openJob();
    await results();
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject report' }));
    expect(within(dialog).getByText('Say why the report is rejected')).toBeInTheDocument();
    expect(reviews(bff.requests)).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Why is it rejected/ }), 'Wrong patient: the report is for someone else');
    await user.click(within(dialog).getByRole('button', { name: 'Reject report' }));
    const outcome = await screen.findByRole('status', {}, { timeout: 4000 });
    await waitFor(() => expect(outcome).toHaveTextContent('Rejected'));
    expect(reviews(bff.requests)[0]!.body).toEqual({ decision: 'reject', notes: 'Wrong patient: the report is for someone else' });
    expect(await screen.findByRole('region', { name: 'Failure' })).toHaveTextContent('Rejected by a reviewer');
    expect(screen.getByTestId('review-notes')).toHaveTextContent('Wrong patient: the report is for someone else');
  });

  it('says so when the report was reviewed meanwhile (409 not_reviewable), and stops editing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // react-admin logs failed calls in development
    const { user } = openJob(REVIEWER, {
      parser: { reviewAnswers: [{ status: 409, body: { message: 'The job was reviewed already', code: 'not_reviewable' } }] },
    });
    await results();
    await replace(user, 'TSH range low', '0.4');
    await replace(user, 'TSH range high', '4.5');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(/This report can no longer be reviewed: The job was reviewed already/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Potassium value' })).not.toBeInTheDocument();
  });

  it('shows coordinators the same doubts, read-only', async () => {
    const { bff } = openJob(COORDINATOR);
    const region = await results();
    expect(within(region).getByText('45')).toBeInTheDocument();
    expect(cellOf(within(region).getByText('45'))).toHaveAttribute('data-doubtful', 'true');
    expect(within(region).getByText('45 has no decimals; Potassium is normally printed with 1.')).toBeInTheDocument();
    expect(within(region).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument();
    expect(within(region).getByText(/Your role can read them, not review them/)).toBeInTheDocument();
    // Coordinators may read the patient directory.
    expect(await within(screen.getByRole('region', { name: 'Job' })).findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(reviews(bff.requests)).toHaveLength(0);
  });
});

describe('jobs past review, and documents', () => {
  it('shows a completed job’s data and review read-only', async () => {
    const done = makeParserJob({
      id: '9a9a9a9a-0000-4000-8000-000000000010',
      ...structuredClone(DOUBTFUL_REPORT),
      is_reviewed: true,
      needs_human_review: true,
      review: { decision: 'approve', reviewer: 'staff-reviewer', notes: 'Checked against the scan', reviewed_at: '2026-05-03T10:00:00.000Z' },
    });
    openJob(REVIEWER, { parserJobs: [done] }, done);
    const region = await results();
    expect(within(region).getByText('Potassium')).toBeInTheDocument();
    expect(within(region).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.getByText('Approved by staff-reviewer')).toBeInTheDocument();
    expect(screen.getByTestId('review-notes')).toHaveTextContent('Checked against the scan');
  });

  it('shows why a job failed', async () => {
    const failed = makeParserJob({ id: '9a9a9a9a-0000-4000-8000-000000000011', status: 'failed', stage: 'failed', failure_reason: 'The PDF is password-protected', data: null });
    openJob(REVIEWER, { parserJobs: [failed] }, failed);
    expect(await screen.findByRole('region', { name: 'Failure' })).toHaveTextContent('The PDF is password-protected');
    expect(screen.queryByRole('region', { name: 'Extracted results' })).not.toBeInTheDocument();
  });

  it('shows a PDF through the lazily loaded viewer, falling back to a link when it cannot render', async () => {
    const pdf = awaitingReview({ id: '9a9a9a9a-0000-4000-8000-000000000012', file: { name: 'report.pdf', content_type: 'application/pdf', size: 4096 } });
    openJob(REVIEWER, { parserJobs: [pdf] }, pdf);
    const doc = await screen.findByRole('region', { name: 'Original document' });
    expect(await within(doc).findByText('The PDF could not be shown here.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(within(doc).getByRole('link', { name: 'Open the original' })).toHaveAttribute('href', `/api/parser-jobs/${pdf.id}/file`);
    expect(within(doc).queryByRole('img')).not.toBeInTheDocument();
    // The review beside it works regardless.
    expect(screen.getByRole('textbox', { name: 'Potassium value' })).toBeInTheDocument();
  });
});

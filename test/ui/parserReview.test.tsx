/**
 * Reviewing a parsed lab report on the real stack: doubtful cells tinted with their reasons,
 * keyboard travel between them, corrections (a value, a range, another LOINC match), approval with
 * the corrected results, rejection with notes, read-only roles, and a job reviewed meanwhile. The
 * reports are uploaded and read through the service's own domain with a stand-in reader that finds
 * DOUBTFUL_REPORT (test/ui/seed/parser.ts); reviews go through the real BFF and service.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffKey } from '../bff/harness';
import { fill, renderOnStack } from './renderApp';
import { startRealStack, type RealStack, type SeenRequest } from './realStack';
import { ApproveDialog } from '../../src/parser-jobs/review/ApproveDialog';
import { patientCheckOf, PatientMatch } from '../../src/parser-jobs/review/PatientMatch';
import { DOUBTFUL_REPORT, doubtful, parserTeam, readReport, TINY_PDF, TINY_PNG, type ParserTeam } from './seed/parser';

// pdf.js needs a canvas jsdom does not have: the viewer must fall back, not break the page.
vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: {},
  getDocument: () => ({ promise: Promise.reject(new Error('no canvas here')), destroy: async () => {} }),
}));
// The worker's URL (never loaded here). Vite refuses to serve `?url` from a node_modules outside
// the project root, as in a git worktree whose node_modules links to the main checkout's.
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min.mjs' }));

type User = ReturnType<typeof userEvent.setup>;

let stack: RealStack;
/** The reviewers' team, with a report waiting for review that no test reviews (JOB). */
let team: ParserTeam;
let JOB: string;

beforeAll(async () => {
  stack = await startRealStack();
  team = await parserTeam(stack, 'Review team');
  JOB = await readReport(stack.service, team.team, team.patients[0]!);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

/** A report of the team, read by the stand-in reader (DOUBTFUL_REPORT: waiting for review unless `outcome` says otherwise). */
const report = (input: Parameters<typeof readReport>[3] = {}, outcome?: Parameters<typeof readReport>[4], on: ParserTeam = team) =>
  readReport(stack.service, on.team, on.patients[0]!, input, outcome);

/** Opens the job's page signed in as `who`, on the team's console. */
async function openJob(who: StaffKey = 'reviewer', job = JOB, on: ParserTeam = team) {
  stack.useBffApp(on.app);
  await stack.signInAs(who);
  return renderOnStack(stack, `/parser-jobs/${job}/show`);
}

/** Submits a review through the real BFF as another staff member would, from another browser. */
async function reviewAs(who: StaffKey, job: string, body: Record<string, unknown>, on: ParserTeam = team) {
  const session = await stack.bff.login(who, on.app);
  const r = await stack.bff.request({ method: 'POST', url: `/api/parser-jobs/${job}/review`, session, payload: body, app: on.app });
  if (r.status !== 200) throw new Error(`reviewing ${job} as ${who}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** The CSRF token of the browser's session, as the BFF gives it to the page. */
async function sessionCsrfToken(on: ParserTeam = team): Promise<string> {
  const me = await on.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: stack.cookie() } });
  return (me.json() as { csrfToken: string }).csrfToken;
}

const results = () => screen.findByRole('region', { name: 'Extracted results' });
const input = (name: string) => screen.getByRole('textbox', { name });
/** The cell (or, for the test name and LOINC, the part of the cell) an input belongs to. */
const cellOf = (el: HTMLElement) => el.closest<HTMLElement>('[data-column]')!;
const reviews = (requests: SeenRequest[]) => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/review'));

async function replace(user: User, name: string, value: string) {
  const el = input(name);
  await user.clear(el);
  await user.type(el, value);
}

describe('reviewing a report', () => {
  it('tints every doubtful cell with its reason, and starts on the first one', async () => {
    await openJob();
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
    expect(within(doc).getByRole('img', { name: /The uploaded report/ })).toHaveAttribute('src', `/api/parser-jobs/${JOB}/file`);
  });

  it('counts every tinted cell: a row-level doubt tints the cell it counts, and a detail not found counts too', async () => {
    const outcome = doubtful();
    if (outcome.ok) {
      outcome.data.metadata = { ...outcome.data.metadata, dob: '' };
      outcome.reviewReasons.report.push({ code: 'metadata_incomplete', message: 'The date of birth was not found on the report.' });
    }
    await openJob('reviewer', await report({}, outcome));
    const region = await results();
    const tinted = region.querySelectorAll('[data-doubtful]').length;
    expect(within(region).getByText('Not found on the report')).toBeInTheDocument(); // the date of birth, tinted
    // 5 result cells (Vitamin D's row-level doubt tints its value) and the date of birth.
    expect(tinted).toBe(5);
    expect(within(region).getByRole('region', { name: 'Why this report needs review' })).toHaveTextContent(`${tinted + 1} doubtful cells to check`);
    expect(cellOf(input('Vitamin D value'))).toHaveAttribute('data-doubtful', 'true');
  });

  it('jumps between doubtful cells with Enter and Alt+arrows, and back', async () => {
    const { user } = await openJob();
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
    // A team of its own, whose queue holds this report and, after it, the next one.
    const queueTeam = await parserTeam(stack, 'Review queue team');
    const first = await report({}, undefined, queueTeam);
    await report({ name: 'second.png' }, undefined, queueTeam);
    const { user } = await openJob('reviewer', first, queueTeam);
    await results();
    await waitFor(() => expect(input('Potassium value')).toHaveFocus());
    await replace(user, 'Potassium value', '4.5');
    await replace(user, 'Sodium units', 'mmol/L');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Hemoglobin A1c LOINC' }), '17856-6');
    await replace(user, 'TSH range low', '0.4');
    await replace(user, 'TSH range high', '4.5');
    await replace(user, 'Specimen number', 'SP-1002');
    expect(within(cellOf(input('Potassium value'))).getByText('Corrected')).toBeInTheDocument();

    // Ctrl+Enter asks first; nothing is sent before the confirmation.
    await user.keyboard('{Control>}{Enter}{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Approve these results?' });
    expect(dialog).toHaveTextContent('6 results will be filed for the patient, with your 5 corrections.');
    expect(reviews(stack.requests)).toHaveLength(0);
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toHaveFocus();
    await user.keyboard('{Enter}');

    const outcome = await screen.findByRole('status');
    await waitFor(() => expect(outcome).toHaveTextContent('Approved'));
    expect(await within(screen.getByLabelText('Job status')).findByText('Done')).toBeInTheDocument();
    // Read-only now, showing what was filed.
    expect(screen.queryByRole('textbox', { name: 'Potassium value' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: 'Potassium' })).getByText('4.5')).toBeInTheDocument();

    const [sent] = reviews(stack.requests);
    expect(sent!.path).toBe(`/api/parser-jobs/${first}/review`);
    expect(sent!.headers.get('x-csrf-token')).toBe(await sessionCsrfToken(queueTeam));
    const body = sent!.body as { decision: string; metadata: Record<string, string>; results: Record<string, unknown>[] };
    expect(body.decision).toBe('approve');
    expect(body.metadata).toMatchObject({ patient_first_name: 'Ada', patient_last_name: 'Lovelace', specimen_number: 'SP-1002' });
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
    expect(await screen.findByText(`second.png (${TINY_PNG.length} bytes)`)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Potassium value' })).toHaveValue('45'));
  });

  it('refuses to approve while a cell holds something that is not a number', async () => {
    const { user } = await openJob();
    await results();
    await replace(user, 'TSH range low', '0,4');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Fix the cell marked in red before approving.')).toBeInTheDocument();
    expect(screen.getByText('Low: Not a number (use a dot for decimals)')).toBeInTheDocument();
    expect(input('TSH range low')).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(reviews(stack.requests)).toHaveLength(0);
  });

  it('asks for notes before rejecting', async () => {
    const { user } = await openJob('reviewer', await report());
    await results();
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject report' }));
    expect(within(dialog).getByText('Say why the report is rejected')).toBeInTheDocument();
    expect(reviews(stack.requests)).toHaveLength(0);

    await fill(user, within(dialog).getByRole('textbox', { name: /Why is it rejected/ }), 'Wrong patient: the report is for someone else');
    await user.click(within(dialog).getByRole('button', { name: 'Reject report' }));
    const outcome = await screen.findByRole('status');
    await waitFor(() => expect(outcome).toHaveTextContent('Rejected'));
    expect(reviews(stack.requests)[0]!.body).toEqual({ decision: 'reject', notes: 'Wrong patient: the report is for someone else' });
    expect(await screen.findByRole('region', { name: 'Failure' })).toHaveTextContent('Rejected by a reviewer');
    expect(screen.getByTestId('review-notes')).toHaveTextContent('Wrong patient: the report is for someone else');
  });

  it('says so when the report was reviewed meanwhile (409 not_reviewable), and stops editing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // react-admin logs failed calls in development
    const job = await report();
    const { user } = await openJob('reviewer', job);
    await results();
    // Meanwhile, an admin reviews the same report from another browser.
    await reviewAs('admin', job, { decision: 'approve' });
    await replace(user, 'TSH range low', '0.4');
    await replace(user, 'TSH range high', '4.5');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    // The real service's words (the fake said "The job was reviewed already").
    expect(await screen.findByText(/This report can no longer be reviewed: This job has been reviewed already/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Potassium value' })).not.toBeInTheDocument();
  });

  it('shows coordinators the same doubts, read-only', async () => {
    await openJob('coordinator');
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
    expect(reviews(stack.requests)).toHaveLength(0);
  });
});

describe('jobs past review, and documents', () => {
  it('shows a completed job’s data and review read-only', async () => {
    // A value and a range printed as bounds ("<200", "<150") stay bounds, never bare numbers.
    const outcome = doubtful();
    if (outcome.ok) {
      const { min_reference_range: _min, ...glucose } = outcome.data.results[0]!;
      outcome.data.results[0] = { ...glucose, test_name: 'Triglycerides', value: '<200', max_reference_range: 150, units: 'mg/dL' };
    }
    const done = await report({}, outcome);
    await reviewAs('reviewer', done, { decision: 'approve', notes: 'Checked against the scan' });
    await openJob('reviewer', done);
    const region = await results();
    expect(within(region).getByText('Potassium')).toBeInTheDocument();
    const triglycerides = within(region).getByRole('row', { name: 'Triglycerides' });
    expect(within(triglycerides).getByText('<200')).toBeInTheDocument();
    expect(within(triglycerides).getByText('<150')).toBeInTheDocument();
    expect(within(region).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    // The BFF files the staff member's id as the reviewer and shows their name beside it.
    expect(screen.getByText('Approved by Test reviewer')).toBeInTheDocument();
    expect(screen.getByTestId('review-notes')).toHaveTextContent('Checked against the scan');
  });

  it('shows why a job failed', async () => {
    const failed = await report({ name: 'locked.pdf', bytes: TINY_PDF }, { ok: false, failureReason: 'The PDF is password-protected' });
    await openJob('reviewer', failed);
    expect(await screen.findByRole('region', { name: 'Failure' })).toHaveTextContent('The PDF is password-protected');
    expect(screen.queryByRole('region', { name: 'Extracted results' })).not.toBeInTheDocument();
  });

  it('shows a PDF through the lazily loaded viewer, falling back to a link when it cannot render', async () => {
    const pdf = await report({ name: 'report.pdf', bytes: TINY_PDF });
    await openJob('reviewer', pdf);
    const doc = await screen.findByRole('region', { name: 'Original document' });
    expect(await within(doc).findByText('The PDF could not be shown here.')).toBeInTheDocument();
    expect(within(doc).getByRole('link', { name: 'Open the original' })).toHaveAttribute('href', `/api/parser-jobs/${pdf}/file`);
    expect(within(doc).queryByRole('img')).not.toBeInTheDocument();
    // The review beside it works regardless.
    expect(screen.getByRole('textbox', { name: 'Potassium value' })).toBeInTheDocument();
  });
});

describe('is this report the patient’s?', () => {
  /** DOUBTFUL_REPORT with another name in its header (the team's patient's orders name Ada Lovelace, born 1980-04-02). */
  const namedAs = (first: string, last: string) => {
    const outcome = doubtful();
    if (outcome.ok) outcome.data.metadata = { ...outcome.data.metadata, patient_first_name: first, patient_last_name: last };
    return outcome;
  };
  const fixRange = async (user: User) => {
    await replace(user, 'TSH range low', '0.4');
    await replace(user, 'TSH range high', '4.5');
  };

  it('keeps the name as read beside the correction, and asks for a confirmation to approve a report read as someone else', async () => {
    const job = await report({}, namedAs('Grace', 'Hopper'));
    const { user } = await openJob('reviewer', job);
    await results();
    const before = await screen.findByRole('alert', { name: 'Patient mismatch' });
    expect(before).toHaveTextContent("This report may not be this patient's: the name differs");

    // Retyping the name to match is no way around the check: the name as read still counts.
    await replace(user, 'Patient first name', 'Ada');
    await replace(user, 'Patient last name', 'Lovelace');
    const alert = screen.getByRole('alert', { name: 'Patient mismatch' });
    const identities = within(alert).getByRole('table', { name: 'Report and patient identity' });
    expect(within(identities).getByRole('row', { name: /Read from the report/ })).toHaveTextContent('Grace Hopper1980-04-02');
    expect(within(identities).getByRole('row', { name: /As corrected/ })).toHaveTextContent('Ada Lovelace1980-04-02');
    expect(within(identities).getByRole('row', { name: /On the patient's orders/ })).toHaveTextContent('Ada Lovelace1980-04-02');
    expect(alert).toHaveTextContent(/As read, the report was for Grace Hopper, born 1980-04-02, .*corrected in review to Ada Lovelace/);

    await fixRange(user);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve these results?' });
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    expect(approve).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I have checked: this report belongs to this patient' }));
    await user.click(approve);
    const outcome = await screen.findByRole('status');
    await waitFor(() => expect(outcome).toHaveTextContent('Approved'));
    const [sent] = reviews(stack.requests);
    expect(sent!.body).toMatchObject({ decision: 'approve', confirm_patient_mismatch: true, metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace' } });
  });

  it('says what to check for a patient without orders, and files the report only once the reviewer confirms it is theirs', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // react-admin logs the refused call in development
    const [lonely] = (await stack.service.addUsers(team.team, [{ clientUserId: 'pt-no-orders' }])) as [string];
    const job = await readReport(stack.service, team.team, lonely, {});
    const { user } = await openJob('reviewer', job);
    await results();
    const alert = await screen.findByLabelText('Patient not compared');
    expect(alert).toHaveTextContent(/No identity to compare: this patient has no orders giving a name and date of birth\. Check this report \(for Ada Lovelace, born 1980-04-02\) belongs to this patient/);
    expect(within(alert).getByRole('row', { name: /On the patient's orders/ })).toHaveTextContent('No orders');
    expect(within(screen.getByRole('region', { name: 'Why this report needs review' })).getByText(/^No identity to compare/)).toBeInTheDocument();

    await fixRange(user);
    // The dialog asks before approving: nothing is sent until the reviewer confirms it is theirs.
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve these results?' });
    expect(dialog).toHaveTextContent(/No identity to compare/);
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I have checked: this report belongs to this patient' }));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const outcome = await screen.findByRole('status');
    await waitFor(() => expect(outcome).toHaveTextContent('Approved'));
    expect(reviews(stack.requests).map((r) => (r.body as { confirm_patient_mismatch?: boolean }).confirm_patient_mismatch)).toEqual([true]);
    expect(await screen.findByText(/Approved without orders to compare the report with/)).toBeInTheDocument();
  });

  it('says which part of the header could not be read', () => {
    const known = { status: 'match' as const, report: { first_name: 'Ada', last_name: 'Lovelace', dob: '1980-04-02' }, patient: [{ first_name: 'Ada', last_name: 'Lovelace', dob: '1980-04-02' }], differences: [] };
    const unreadable = { ...DOUBTFUL_REPORT.data.metadata, patient_first_name: '', patient_last_name: '', dob: '' };
    render(<PatientMatch check={patientCheckOf(unreadable, { ...known, report: { first_name: null, last_name: null, dob: null }, status: 'unknown' })} />);
    expect(screen.getByLabelText('Patient not compared')).toHaveTextContent(
      "The report's patient name and date of birth could not be read: check this report belongs to Ada Lovelace, born 1980-04-02",
    );
  });

  it('asks for the confirmation afresh each time the approval dialog opens, and when the mismatch changes', () => {
    const props = { results: 6, changes: 0, busy: false, onConfirm: vi.fn(), onClose: () => {} };
    const { rerender } = render(<ApproveDialog {...props} open mismatch="The report is for Grace Hopper" />);
    const tick = () => fireEvent.click(screen.getByRole('checkbox', { name: 'I have checked: this report belongs to this patient' }));
    const approve = () => screen.getByRole('button', { name: 'Approve' });
    tick();
    expect(approve()).toBeEnabled();

    rerender(<ApproveDialog {...props} open={false} mismatch="The report is for Grace Hopper" />);
    rerender(<ApproveDialog {...props} open mismatch="The report is for Grace Hopper" />);
    expect(screen.getByRole('checkbox', { name: /I have checked/ })).not.toBeChecked();
    expect(approve()).toBeDisabled();

    tick();
    rerender(<ApproveDialog {...props} open mismatch="The report is for Grace King" />);
    expect(screen.getByRole('checkbox', { name: /I have checked/ })).not.toBeChecked();
    expect(approve()).toBeDisabled();
    fireEvent.click(approve());
    expect(props.onConfirm).not.toHaveBeenCalled();
  });
});

describe('report details', () => {
  it('shows the sex, received date, provider, lab address and CLIA as read, and tints only a missing identity', async () => {
    const { MetadataFields } = await import('../../src/parser-jobs/review/MetadataFields');
    const { correctedMetadata } = await import('../../src/parser-jobs/review/reviewDraft');
    const metadata = {
      patient_first_name: 'Ada',
      patient_last_name: 'Lovelace',
      dob: '',
      lab_name: '',
      gender: 'female' as const,
      date_received: '03/05/2024 14:10',
      provider: 'Dr. Ana Ruiz, MD',
      lab_address: '123 Main St, Springfield, IL 62701',
      'clia_#': '14D0123456',
    };
    const onChange = vi.fn();
    render(<MetadataFields metadata={metadata} editable incomplete onChange={onChange} />);
    const details = screen.getByRole('region', { name: 'Report details' });
    expect(within(details).getByLabelText('Ordering provider')).toHaveValue('Dr. Ana Ruiz, MD');
    expect(within(details).getByLabelText('CLIA number')).toHaveValue('14D0123456');
    expect(within(details).getByLabelText('Lab address')).toHaveValue('123 Main St, Springfield, IL 62701');
    expect(within(details).getByLabelText('Received')).toHaveValue('03/05/2024 14:10');
    expect(within(details).getByRole('combobox', { name: 'Sex' })).toHaveTextContent('female');
    // The date of birth identifies the patient: missing, it is the field to look at. The lab is optional.
    expect(within(details).getAllByText('Not found on the report')).toHaveLength(1);
    fireEvent.change(within(details).getByLabelText('CLIA number'), { target: { value: '' } });
    expect(onChange).toHaveBeenCalledWith('clia_#', '');
    // Emptied optional fields are left out of the approval; "Not printed" clears the sex.
    expect(correctedMetadata({ ...metadata, 'clia_#': ' ', gender: '' as never })).not.toHaveProperty('clia_#');
    expect(correctedMetadata({ ...metadata, gender: '' as never })).not.toHaveProperty('gender');
  });
});

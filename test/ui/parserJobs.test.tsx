/**
 * Parser jobs against the fake BFF: the review queue (oldest first) and all jobs (newest first),
 * partial pagination (no total), the list and job pages updating by themselves while a report is
 * read, and uploading a report with a real progress bar and its refusals on the file field.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  awaitingReview,
  CSRF_TOKEN,
  makeParserJob,
  PNG_HEAD,
  SAMPLE_USERS,
  type FakeBffOptions,
  type RecordedRequest,
  type StaffAccount,
  type UploadForm,
} from './fakeBff';
import { renderApp } from './renderApp';
import type { ParserQueueStatus } from '../../src/parser-jobs/types';

type User = ReturnType<typeof userEvent.setup>;

const account = (role: string): StaffAccount => ({
  email: `${role}@labdesk.test`,
  password: 'a long enough password',
  user: { id: `staff-${role}`, email: `${role}@labdesk.test`, name: role, role },
});
const REVIEWER = account('reviewer');
const COORDINATOR = account('coordinator');

const id = (n: number) => `9a9a9a9a-0000-4000-8000-${String(n).padStart(12, '0')}`;
const day = (n: number) => `2026-05-${String(n).padStart(2, '0')}T09:00:00.000Z`;

const JOBS = [
  awaitingReview({ id: id(1), created_at: day(3), file: { name: 'middle.png', content_type: 'image/png', size: 2048 } }),
  awaitingReview({ id: id(2), created_at: day(1), file: { name: 'oldest.png', content_type: 'image/png', size: 2048 } }),
  awaitingReview({ id: id(3), created_at: day(5), file: { name: 'newest-waiting.pdf', content_type: 'application/pdf', size: 4096 } }),
  makeParserJob({ id: id(4), created_at: day(7), file: { name: 'done.png', content_type: 'image/png', size: 1024 } }),
  makeParserJob({ id: id(5), created_at: day(6), status: 'started', stage: 'ocr_second_pass', file: { name: 'unknown-stage.png', content_type: 'image/png', size: 1024 } }),
];

const listCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'GET' && r.path === '/api/parser-jobs' && !r.query.get('filter')?.includes('"id"'));
const lastList = (requests: RecordedRequest[]) => listCalls(requests).at(-1)!;
const rows = () => screen.getAllByRole('row').slice(1); // minus the header row
const fileNames = () => rows().map((r) => within(r).queryByText(/\.(png|pdf)$/)?.textContent ?? '');

function open(staff: StaffAccount, path: string, options: FakeBffOptions = {}) {
  return renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [staff], parserJobs: JOBS, ...options }, path);
}

describe('the parser jobs list', () => {
  it('opens reviewers on the review queue, oldest first, and switches to all jobs, newest first', async () => {
    const { user, bff } = open(REVIEWER, '/parser-jobs');
    await waitFor(() => expect(fileNames()).toEqual(['oldest.png', 'middle.png', 'newest-waiting.pdf']));
    expect(screen.getByRole('tab', { name: /Review queue/ })).toHaveAttribute('aria-selected', 'true');
    expect(JSON.parse(lastList(bff.requests).query.get('filter')!)).toEqual({ queue: true });
    expect(lastList(bff.requests).query.get('sort')).toBe('["created_at","ASC"]');
    expect(within(rows()[0]!).getByText('Awaiting review')).toBeInTheDocument();
    expect(within(rows()[0]!).getByText('Needs review')).toBeInTheDocument();
    // Reviewers may not read the patient directory: the user id, not a 403.
    expect(within(rows()[0]!).getByText('User 0b7e6a8e')).toBeInTheDocument();
    expect(bff.requests.some((r) => r.path === '/api/users')).toBe(false);

    await user.click(screen.getByRole('tab', { name: 'All jobs' }));
    await waitFor(() => expect(fileNames()).toEqual(['done.png', 'unknown-stage.png', 'newest-waiting.pdf', 'middle.png', 'oldest.png']));
    expect(JSON.parse(lastList(bff.requests).query.get('filter')!)).toEqual({});
    expect(lastList(bff.requests).query.get('sort')).toBe('["created_at","DESC"]');
    expect(screen.getByRole('tab', { name: 'All jobs' })).toHaveAttribute('aria-selected', 'true');

    // A stage this dashboard does not know: raw, on a neutral chip.
    const unknown = within(rows()[1]!).getByText('ocr_second_pass').closest('.MuiChip-root')!;
    expect(unknown.className).toMatch(/MuiChip-outlined/);
    expect(unknown.className).not.toMatch(/MuiChip-color(Error|Warning|Success|Info)/);
    expect(within(rows()[0]!).getByText('Done')).toBeInTheDocument();
  });

  it('opens coordinators on all jobs, with the patient’s client user id, and an upload button', async () => {
    open(COORDINATOR, '/parser-jobs');
    expect(await screen.findByText('done.png')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All jobs' })).toHaveAttribute('aria-selected', 'true');
    expect(await within(rows()[0]!).findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload a report' })).toBeInTheDocument();
  });

  it('says how many reports wait to be read and how long the oldest has waited, and updates itself', async () => {
    const queue: ParserQueueStatus[] = [
      { available: true, queued: 3, parsing: 1, oldestQueuedAt: day(7), oldestWaitSeconds: 150, readers: 2 },
      { available: true, queued: 0, parsing: 0, oldestQueuedAt: null, oldestWaitSeconds: null, readers: 2 },
    ];
    open(COORDINATOR, '/parser-jobs', { parser: { queue } });
    const line = await screen.findByTestId('parser-queue');
    expect(line).toHaveTextContent('3 reports waiting to be read · 1 being read · the oldest has waited 3 min.');
    expect(line).toHaveAttribute('role', 'status');
    // The next poll (every 5 s) finds the queue empty.
    await waitFor(() => expect(screen.getByTestId('parser-queue')).toHaveTextContent('Nothing waiting to be read.'), { timeout: 8000 });
  });

  it('shows no queue line where the service does not report its queue', async () => {
    open(COORDINATOR, '/parser-jobs', { parser: { queue: [{ available: false }] } });
    expect(await screen.findByText('done.png')).toBeInTheDocument();
    expect(screen.queryByTestId('parser-queue')).not.toBeInTheDocument();
  });

  it('walks pages without a total (partial pagination)', async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      makeParserJob({ id: id(100 + i), created_at: `2026-04-${String(i + 1).padStart(2, '0')}T08:00:00.000Z`, file: { name: `report-${String(i + 1).padStart(2, '0')}.png`, content_type: 'image/png', size: 10 } }),
    );
    const { user, bff } = open(COORDINATOR, '/parser-jobs', { parserJobs: many });
    await screen.findByText('report-30.png');
    expect(rows()).toHaveLength(25);
    expect(lastList(bff.requests).query.get('range')).toBe('[0,24]');
    expect(screen.getByRole('button', { name: /previous page/i })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: /next page/i }));
    await screen.findByText('report-05.png');
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(lastList(bff.requests).query.get('range')).toBe('[25,49]');
    expect(screen.getByText('report-01.png')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /next page/i })).toBeDisabled();
    expect(screen.queryByText(/NaN/)).not.toBeInTheDocument();
  });

  it('says what to do when the queue or the whole list is empty', async () => {
    const { user } = open(REVIEWER, '/parser-jobs', { parserJobs: [] });
    expect(await screen.findByText('No reports are waiting for review')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'All jobs' }));
    expect(await screen.findByText('Upload a lab report to start')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Upload a report' }).length).toBeGreaterThan(0);
  });

  it('polls while a job on screen is being read, and stops once none is', async () => {
    const reading = makeParserJob({
      id: id(7),
      created_at: day(9),
      status: 'started',
      stage: 'parsing',
      progress: 0.2,
      file: { name: 'reading.png', content_type: 'image/png', size: 10 },
      script: [{ progress: 0.5 }, { ...awaitingReview({ id: id(7) }), created_at: day(9), file: { name: 'reading.png', content_type: 'image/png', size: 10 } }],
    });
    const { bff } = open(COORDINATOR, '/parser-jobs', { parserJobs: [reading] });
    const bar = await screen.findByRole('progressbar', { name: 'Parsing progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    // About 3 s later, without anyone touching the page, it is waiting for review.
    expect(await screen.findByText('Awaiting review', {}, { timeout: 6000 })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Parsing progress' })).not.toBeInTheDocument();
    const reads = listCalls(bff.requests).length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(listCalls(bff.requests).length).toBe(reads);
  });
});

// ---------------------------------------------------------------------------------------------

const png = (name = 'scan.png') => new File([Uint8Array.from([...PNG_HEAD, 0, 0, 0, 13])], name, { type: 'image/png' });
const uploads = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === '/api/parser-jobs');

async function pickPatient(user: User) {
  const input = await screen.findByRole('combobox', { name: /Patient \(client user id\)/ });
  await user.type(input, 'pt-7f');
  await user.click(await screen.findByRole('option', { name: 'pt-7f3a2c91' }));
}

function openUpload(options: FakeBffOptions = {}) {
  const app = open(COORDINATOR, '/parser-jobs/create', options);
  vi.stubGlobal('XMLHttpRequest', app.bff.XMLHttpRequest);
  return app;
}

describe('uploading a report', () => {
  it('shows the upload moving, then the parsing moving by itself, until the report waits for review', async () => {
    const { user, bff } = openUpload({ parser: { holdUploads: true } });
    await pickPatient(user);
    await user.upload(screen.getByLabelText('Lab report file'), png());
    expect(screen.getByTestId('chosen-file')).toHaveTextContent('scan.png (12 bytes)');
    await user.click(screen.getByRole('checkbox', { name: 'Ask for a human review' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(bff.uploads).toHaveLength(1));
    const upload = bff.uploads[0]!;
    act(() => upload.progress(0.25));
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('Uploading scan.png: 25%')).toBeInTheDocument();
    act(() => upload.progress(0.75));
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '75');
    act(() => upload.finish());

    // The job's page: the reading of the report, moving by itself.
    const parsing = await screen.findByRole('region', { name: 'Parsing' });
    await waitFor(() => expect(within(parsing).getByRole('progressbar', { name: 'Parsing progress' })).toHaveAttribute('aria-valuenow', '40'));
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Parsing progress' })).toHaveAttribute('aria-valuenow', '80'), { timeout: 4000 });
    expect(await screen.findByRole('region', { name: 'Extracted results' }, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Parsing' })).not.toBeInTheDocument();
    expect(within(screen.getByLabelText('Job status')).getByText('Awaiting review')).toBeInTheDocument();

    // One multipart POST, with the CSRF token, the patient, the file and the review request.
    const sent = uploads(bff.requests);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('x-csrf-token')).toBe(CSRF_TOKEN);
    expect(sent[0]!.body as UploadForm).toMatchObject({
      user_id: SAMPLE_USERS[0]!.id,
      needs_human_review: 'true',
      file: { name: 'scan.png', type: 'image/png', size: 12 },
    });
  });

  it('refuses a file over 10 MB before sending anything', async () => {
    const { user, bff } = openUpload();
    await pickPatient(user);
    const big = png('huge-scan.png');
    Object.defineProperty(big, 'size', { value: 12 * 1024 * 1024 });
    await user.upload(screen.getByLabelText('Lab report file'), big);
    expect(await screen.findByText(/This file is 12\.00 MB, over the 10 MB limit/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByLabelText('Lab report file')).toHaveAttribute('aria-invalid', 'true');
    expect(bff.uploads).toHaveLength(0);
    expect(uploads(bff.requests)).toHaveLength(0);
  });

  it('refuses a file that is obviously not a report, by name and type, before sending', async () => {
    const { user, bff } = openUpload();
    await pickPatient(user);
    // userEvent honours the accept attribute; a drop does not.
    fireEvent.drop(screen.getByTestId('chosen-file').parentElement!, {
      dataTransfer: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(await screen.findByText('This looks like a .txt file. Choose a PDF, JPEG or PNG.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(uploads(bff.requests)).toHaveLength(0);
  });

  it('shows the server’s 415 on the file field when the content is not a PDF, JPEG or PNG', async () => {
    const { user, bff } = openUpload();
    await pickPatient(user);
    await user.upload(screen.getByLabelText('Lab report file'), new File(['just some text'], 'report.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(/The server could not read this file as a PDF, JPEG or PNG/)).toBeInTheDocument();
    expect(screen.getByLabelText('Lab report file')).toHaveAttribute('aria-invalid', 'true');
    expect(uploads(bff.requests)).toHaveLength(1);
    // Still on the form, to choose another file.
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
  });

  it('asks for the patient', async () => {
    const { user, bff } = openUpload();
    await user.upload(await screen.findByLabelText('Lab report file'), png());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Choose the patient the report belongs to')).toBeInTheDocument();
    expect(uploads(bff.requests)).toHaveLength(0);
  });
});

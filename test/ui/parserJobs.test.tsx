/**
 * Parser jobs on the real stack: the review queue (oldest first) and all jobs (newest first),
 * partial pagination (no total), the list and job pages updating by themselves while a report is
 * read, and uploading a report with a real progress bar and its refusals on the file field.
 * Jobs are uploaded and read through the service's own domain with a stand-in reader (no OCR);
 * each list scenario runs on a team of its own (test/ui/seed/parser.ts).
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { File as NodeFile } from 'node:buffer';
import { desc, eq } from 'drizzle-orm';
import { http } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parsingJobs } from '../../server/service/db/schema';
import { setPollScale } from '../../src/components/polling';
import { LIST_POLL_MS } from '../../src/parser-jobs/jobState';
import type { StaffKey } from '../bff/harness';
import { renderOnStack } from './renderApp';
import { startRealStack, type RealStack, type SeenRequest } from './realStack';
import {
  clean,
  doubtful,
  parseNow,
  parserTeam,
  readReport,
  setJobStage,
  shapeQueue,
  startParse,
  startQueuelessProxy,
  TINY_PDF,
  TINY_PNG,
  uploadReport,
  type ParserTeam,
} from './seed/parser';

type User = ReturnType<typeof userEvent.setup>;

let stack: RealStack;
/** The team of the first list tests: five jobs, in the states the list shows. */
let listTeam: ParserTeam;
/** The main team's patient, for the uploads. */
let patient: string;
/**
 * The pages poll ten times as often as the dashboard does (the list every 300 ms, not 3 s; a job's
 * page every 150 ms; the queue line every 500 ms): a test that proves polling stopped watches
 * several of the list's intervals go by.
 */
const POLL_SCALE = 0.1;

beforeAll(async () => {
  setPollScale(POLL_SCALE);
  stack = await startRealStack();
  [patient] = (await stack.service.addUsers(stack.service.team, [{ clientUserId: 'pt-7f3a2c91' }, { clientUserId: 'pt-99b01d44' }])) as [string];

  // Uploaded in this order (so oldest first): three waiting for review, one being read by a newer
  // service (a stage this dashboard does not know), one done.
  listTeam = await parserTeam(stack, 'Parser list team');
  const { service } = stack;
  const [owner] = listTeam.patients as [string];
  await readReport(service, listTeam.team, owner, { name: 'oldest.png' });
  await readReport(service, listTeam.team, owner, { name: 'middle.png' });
  await readReport(service, listTeam.team, owner, { name: 'newest-waiting.pdf', bytes: TINY_PDF });
  await setJobStage(service, await uploadReport(service, listTeam.team, owner, { name: 'unknown-stage.png' }), 'ocr_second_pass');
  await readReport(service, listTeam.team, owner, { name: 'done.png' }, clean());
});
afterAll(async () => {
  setPollScale();
  await stack?.close();
});
beforeEach(() => {
  stack.reset();
  stack.msw.events.removeAllListeners();
  // The real service runs in this jsdom worker, where the global Uint8Array is jsdom's: the
  // service's content check (file-type) and its store (PGlite) then take the Node Buffer an upload
  // arrives in for no byte array at all (a 415 for every file, a failed insert). With Node's own
  // Uint8Array they judge and store the bytes as in production. (setup.ts unstubs after each test.)
  vi.stubGlobal('Uint8Array', Object.getPrototypeOf(Buffer.prototype).constructor);
});

/** Opens `path` signed in as `who`, on the given team's console (default: the main team's). */
async function open(who: StaffKey, path: string, team?: ParserTeam) {
  stack.useBffApp(team?.app ?? null);
  await stack.signInAs(who);
  return renderOnStack(stack, path);
}

const listCalls = (requests: SeenRequest[]) => requests.filter((r) => r.method === 'GET' && r.path === '/api/parser-jobs' && !r.query.get('filter')?.includes('"id"'));
const lastList = (requests: SeenRequest[]) => listCalls(requests).at(-1)!;
const rows = () => screen.getAllByRole('row').slice(1); // minus the header row
const fileNames = () => rows().map((r) => within(r).queryByText(/\.(png|pdf)$/)?.textContent ?? '');

describe('the parser jobs list', () => {
  it('opens reviewers on the review queue, oldest first, and switches to all jobs, newest first', async () => {
    const { user } = await open('reviewer', '/parser-jobs', listTeam);
    await waitFor(() => expect(fileNames()).toEqual(['oldest.png', 'middle.png', 'newest-waiting.pdf']));
    expect(screen.getByRole('tab', { name: /Review queue/ })).toHaveAttribute('aria-selected', 'true');
    expect(JSON.parse(lastList(stack.requests).query.get('filter')!)).toEqual({ queue: true });
    expect(lastList(stack.requests).query.get('sort')).toBe('["created_at","ASC"]');
    expect(within(rows()[0]!).getByText('Awaiting review')).toBeInTheDocument();
    expect(within(rows()[0]!).getByText('Needs review')).toBeInTheDocument();
    // Reviewers may not read the patient directory: the user id, not a 403.
    expect(within(rows()[0]!).getByText(`User ${listTeam.patients[0]!.slice(0, 8)}`)).toBeInTheDocument();
    expect(stack.requests.some((r) => r.path === '/api/users')).toBe(false);

    await user.click(screen.getByRole('tab', { name: 'All jobs' }));
    await waitFor(() => expect(fileNames()).toEqual(['done.png', 'unknown-stage.png', 'newest-waiting.pdf', 'middle.png', 'oldest.png']));
    expect(JSON.parse(lastList(stack.requests).query.get('filter')!)).toEqual({});
    expect(lastList(stack.requests).query.get('sort')).toBe('["created_at","DESC"]');
    expect(screen.getByRole('tab', { name: 'All jobs' })).toHaveAttribute('aria-selected', 'true');

    // A stage this dashboard does not know: raw, on a neutral chip.
    const unknown = within(rows()[1]!).getByText('ocr_second_pass').closest('.MuiChip-root')!;
    expect(unknown.className).toMatch(/MuiChip-outlined/);
    expect(unknown.className).not.toMatch(/MuiChip-color(Error|Warning|Success|Info)/);
    expect(within(rows()[0]!).getByText('Done')).toBeInTheDocument();
  });

  it('opens coordinators on all jobs, with the patient’s client user id, and an upload button', async () => {
    await open('coordinator', '/parser-jobs', listTeam);
    expect(await screen.findByText('done.png')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All jobs' })).toHaveAttribute('aria-selected', 'true');
    expect(await within(rows()[0]!).findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload a report' })).toBeInTheDocument();
  });

  it('says how many reports wait to be read and how long the oldest has waited, and updates itself', async () => {
    // A team with four uploads: three waiting for a reader (the oldest for 170 s), one being read.
    const queueTeam = await parserTeam(stack, 'Parser queue team');
    const { service } = stack;
    const [owner] = queueTeam.patients as [string];
    const uploads = [];
    for (const name of ['q1.png', 'q2.png', 'q3.png', 'q4.png']) uploads.push(await uploadReport(service, queueTeam.team, owner, { name }));
    await shapeQueue(service, { oldest: uploads[0]!, taken: uploads[3]! }, 170);

    await open('coordinator', '/parser-jobs', queueTeam);
    const line = await screen.findByTestId('parser-queue');
    expect(line).toHaveTextContent('3 reports waiting to be read · 1 being read · the oldest has waited 3 min.');
    expect(line).toHaveAttribute('role', 'status');
    // The readers get through them; the next poll finds the queue empty.
    for (const id of uploads) await parseNow(service, id, doubtful());
    await waitFor(() => expect(screen.getByTestId('parser-queue')).toHaveTextContent('Nothing waiting to be read.'));
  });

  it('shows no queue line where the service does not report its queue', async () => {
    // Another deployment of the service, without the queue extension (its queue route answers 404).
    const proxy = await startQueuelessProxy(stack.service.url);
    try {
      const app = await stack.bff.buildApp({ serviceBaseUrl: proxy.url, serviceApiKey: listTeam.team.apiKey });
      await open('coordinator', '/parser-jobs', { ...listTeam, app });
      expect(await screen.findByText('done.png')).toBeInTheDocument();
      await waitFor(() => expect(stack.requests.some((r) => r.path === '/api/parser-jobs/queue')).toBe(true));
      expect(screen.queryByTestId('parser-queue')).not.toBeInTheDocument();
    } finally {
      stack.useBffApp(null);
      await proxy.close();
    }
  });

  it('walks pages without a total (partial pagination)', async () => {
    const pagesTeam = await parserTeam(stack, 'Parser pages team');
    const [owner] = pagesTeam.patients as [string];
    for (let i = 1; i <= 30; i++) await readReport(stack.service, pagesTeam.team, owner, { name: `report-${String(i).padStart(2, '0')}.png` }, clean());
    const { user } = await open('coordinator', '/parser-jobs', pagesTeam);
    await screen.findByText('report-30.png');
    expect(rows()).toHaveLength(25);
    expect(lastList(stack.requests).query.get('range')).toBe('[0,24]');
    expect(screen.getByRole('button', { name: /previous page/i })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: /next page/i }));
    await screen.findByText('report-05.png');
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(lastList(stack.requests).query.get('range')).toBe('[25,49]');
    expect(screen.getByText('report-01.png')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /next page/i })).toBeDisabled();
    expect(screen.queryByText(/NaN/)).not.toBeInTheDocument();
  });

  it('says what to do when the queue or the whole list is empty', async () => {
    const { user } = await open('reviewer', '/parser-jobs', await parserTeam(stack, 'Parser empty team'));
    expect(await screen.findByText('No reports are waiting for review')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'All jobs' }));
    expect(await screen.findByText('Upload a lab report to start')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Upload a report' }).length).toBeGreaterThan(0);
  });

  it('polls while a job on screen is being read, and stops once none is', async () => {
    const readingTeam = await parserTeam(stack, 'Parser reading team');
    const id = await uploadReport(stack.service, readingTeam.team, readingTeam.patients[0]!, { name: 'reading.png' });
    const reading = startParse(stack.service, id, doubtful());
    await reading.progress(0.2);
    await open('coordinator', '/parser-jobs', readingTeam);
    const bar = await screen.findByRole('progressbar', { name: 'Parsing progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '20');
    // The reader moves on: the list, asking again by itself, shows it.
    await reading.progress(0.5);
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Parsing progress' })).toHaveAttribute('aria-valuenow', '50'));
    // The reader is done; without anyone touching the page, the job is waiting for review.
    await reading.finish();
    expect(await screen.findByText('Awaiting review')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Parsing progress' })).not.toBeInTheDocument();
    // And the list stops asking: five of its intervals go by without a read.
    const reads = listCalls(stack.requests).length;
    await new Promise((resolve) => setTimeout(resolve, 5 * LIST_POLL_MS * POLL_SCALE));
    expect(listCalls(stack.requests).length).toBe(reads);
  });
});

// ---------------------------------------------------------------------------------------------

const png = (name = 'scan.png') => new File([new Uint8Array(TINY_PNG)], name, { type: 'image/png' });
const uploads = (requests: SeenRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === '/api/parser-jobs');

/** The fields of a multipart body as the browser sent it: text values, and each file's name, type and size. */
function formFields(body: unknown): Record<string, string | { filename: string; type: string; size: number }> {
  const text = Buffer.from(body as Uint8Array).toString('latin1');
  const boundary = text.slice(0, text.indexOf('\r\n'));
  const fields: Record<string, string | { filename: string; type: string; size: number }> = {};
  for (const part of text.split(boundary).slice(1, -1)) {
    const [head = '', ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const value = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '';
    fields[name] = filename === undefined ? value : { filename, type, size: Buffer.byteLength(value, 'latin1') };
  }
  return fields;
}

async function pickPatient(user: User) {
  const input = await screen.findByRole('combobox', { name: /Patient \(client user id\)/ });
  await user.type(input, 'pt-7f');
  await user.click(await screen.findByRole('option', { name: 'pt-7f3a2c91' }));
}

/** The CSRF token of the browser's session, as the BFF gives it to the page. */
async function sessionCsrfToken(): Promise<string> {
  const me = await stack.bff.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: stack.cookie() } });
  return (me.json() as { csrfToken: string }).csrfToken;
}

/** The upload page as a coordinator opens it, on the main team's console. */
const openUpload = () => open('coordinator', '/parser-jobs/create');
describe('uploading a report', () => {
  it('shows the upload moving, then the parsing moving by itself, until the report waits for review', async () => {
    // The upload object the page listens on, to report the upload's progress by hand while the
    // request is held (MSW reports an intercepted upload as sent all at once, just before the answer).
    const listening = vi.spyOn(Object.getPrototypeOf(XMLHttpRequestUpload.prototype) as { onprogress: unknown }, 'onprogress', 'set');
    // The CSRF header as the request carried it (stack.requests keeps no header the page set on an
    // XMLHttpRequest: see the report), read as MSW sees each request start.
    const csrfSent: (string | null)[] = [];
    stack.msw.events.on('request:start', ({ request }) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/parser-jobs') csrfSent.push(request.headers.get('x-csrf-token'));
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Holds the upload, then lets it through to the real BFF (a handler that answers nothing passes it on).
    stack.msw.use(http.post('*/api/parser-jobs', async () => void (await held), { once: true }));

    // The form as Node's fetch sends it: MSW turns the intercepted XMLHttpRequest into a fetch
    // Request, which reads a jsdom File's bytes as text (the PNG arrives re-encoded, named "blob").
    const nodeFormData = (await new Request('http://form.test', { method: 'POST', body: new URLSearchParams() }).formData()).constructor;
    vi.stubGlobal('FormData', nodeFormData);
    vi.stubGlobal('File', NodeFile);

    const { user } = await openUpload();
    await pickPatient(user);
    await user.upload(screen.getByLabelText('Lab report file'), new NodeFile([TINY_PNG], 'scan.png', { type: 'image/png' }) as File);
    expect(screen.getByTestId('chosen-file')).toHaveTextContent(`scan.png (${TINY_PNG.length} bytes)`);
    await user.click(screen.getByRole('checkbox', { name: 'Ask for a human review' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(listening).toHaveBeenCalled());
    const upload = listening.mock.contexts.find((c) => c instanceof XMLHttpRequestUpload) as XMLHttpRequestUpload;
    const progress = (fraction: number) =>
      act(() => {
        upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: Math.round(1000 * fraction), total: 1000 }));
      });
    progress(0.25);
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('Uploading scan.png: 25%')).toBeInTheDocument();
    progress(0.75);
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '75');
    release();

    // The job's page, where the reading of the report moves by itself (the page asks again while it is read).
    const parsing = await screen.findByRole('region', { name: 'Parsing' });
    expect(await screen.findByText(`scan.png (${TINY_PNG.length} bytes)`)).toBeInTheDocument();
    const [job] = await stack.service.db.select().from(parsingJobs).where(eq(parsingJobs.userId, patient)).orderBy(desc(parsingJobs.createdAt)).limit(1);
    expect(job).toMatchObject({ fileName: 'scan.png', contentType: 'image/png', fileSize: TINY_PNG.length, reviewRequested: true, stage: 'queued' });
    const reading = startParse(stack.service, job!.id, doubtful());
    await reading.progress(0.4);
    await waitFor(() => expect(within(parsing).getByRole('progressbar', { name: 'Parsing progress' })).toHaveAttribute('aria-valuenow', '40'));
    await reading.progress(0.8);
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Parsing progress' })).toHaveAttribute('aria-valuenow', '80'));
    await reading.finish();
    expect(await screen.findByRole('region', { name: 'Extracted results' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Parsing' })).not.toBeInTheDocument();
    expect(within(screen.getByLabelText('Job status')).getByText('Awaiting review')).toBeInTheDocument();

    // One multipart POST, with the session's CSRF token, the patient, the review request and the file.
    const sent = uploads(stack.requests);
    expect(sent).toHaveLength(1);
    expect(csrfSent).toEqual([await sessionCsrfToken()]);
    expect(formFields(sent[0]!.body)).toEqual({
      user_id: patient,
      needs_human_review: 'true',
      file: { filename: 'scan.png', type: 'image/png', size: TINY_PNG.length },
    });
  });

  it('refuses a file over 10 MB before sending anything', async () => {
    const { user } = await openUpload();
    await pickPatient(user);
    const big = png('huge-scan.png');
    Object.defineProperty(big, 'size', { value: 12 * 1024 * 1024 });
    await user.upload(screen.getByLabelText('Lab report file'), big);
    expect(await screen.findByText(/This file is 12\.00 MB, over the 10 MB limit/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByLabelText('Lab report file')).toHaveAttribute('aria-invalid', 'true');
    expect(uploads(stack.requests)).toHaveLength(0);
  });

  it('refuses a file that is obviously not a report, by name and type, before sending', async () => {
    const { user } = await openUpload();
    await pickPatient(user);
    // userEvent honours the accept attribute; a drop does not.
    fireEvent.drop(screen.getByTestId('chosen-file').parentElement!, {
      dataTransfer: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(await screen.findByText('This looks like a .txt file. Choose a PDF, JPEG or PNG.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(uploads(stack.requests)).toHaveLength(0);
  });

  it('shows the server’s 415 on the file field when the content is not a PDF, JPEG or PNG', async () => {
    const { user } = await openUpload();
    await pickPatient(user);
    await user.upload(screen.getByLabelText('Lab report file'), new File(['just some text'], 'report.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(/The server could not read this file as a PDF, JPEG or PNG/)).toBeInTheDocument();
    expect(screen.getByLabelText('Lab report file')).toHaveAttribute('aria-invalid', 'true');
    expect(uploads(stack.requests)).toHaveLength(1);
    // Still on the form, to choose another file.
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
  });

  it('asks for the patient', async () => {
    const { user } = await openUpload();
    await user.upload(await screen.findByLabelText('Lab report file'), png());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Choose the patient the report belongs to')).toBeInTheDocument();
    expect(uploads(stack.requests)).toHaveLength(0);
  });
});

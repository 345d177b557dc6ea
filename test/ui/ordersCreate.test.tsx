/**
 * The order form on the real stack: the service's lab catalogue and the team's demo lab accounts
 * fill its choices, orders are placed through the real BFF and service, and the service's own
 * validation errors land on the form's fields.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LabAccount } from '../../server/contract';
import { orders } from '../../server/service/db/schema';
import { labTestId } from '../bff/ordersFixture';
import { renderOnStack } from './renderApp';
import { failNext, startRealStack, type RealStack, type SeenRequest } from './realStack';
import { setLabTestStatus } from './seed/orders';

type User = ReturnType<typeof userEvent.setup>;


let stack: RealStack;
let userId: string;
/** The team's demo lab accounts (server/service/seed/labCatalogue.ts), by lab. */
let accounts: Record<'quest' | 'labcorp', LabAccount>;

beforeAll(async () => {
  stack = await startRealStack();
  const { service } = stack;
  [userId] = (await service.addUsers(service.team, [{ clientUserId: 'pt-7f3a2c91' }, { clientUserId: 'pt-99b01d44' }])) as [string];
  const all = (await service.call<{ data: LabAccount[] }>(service.team, 'GET', '/v3/lab_test/lab_account')).body.data;
  accounts = { quest: all.find((a) => a.lab === 'quest')!, labcorp: all.find((a) => a.lab === 'labcorp')! };
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

async function open() {
  await stack.signInAs('coordinator');
  return renderOnStack(stack, '/orders/create');
}

const posts = () => stack.requests.filter((r: SeenRequest) => r.method === 'POST' && r.path === '/api/orders');
const field = (label: RegExp) => screen.getByLabelText(label);
/** The MUI form control (input, label and helper text) of a labelled input. */
const control = (label: RegExp) => field(label).closest('.MuiFormControl-root') as HTMLElement;

async function choose(user: User, label: RegExp, option: string | RegExp) {
  // The real BFF answers the choices a moment after the form shows.
  await user.click(await screen.findByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
}

async function pickUser(user: User) {
  const input = await screen.findByRole('combobox', { name: /User \(client user id\)/ });
  await user.type(input, 'pt-7f');
  await user.click(await screen.findByRole('option', { name: 'pt-7f3a2c91' }));
}

/** Everything required, with valid values; the lab test and account are left to each test. */
async function fillPatientAndAddress(user: User, { zip = '73301', state = 'TX' } = {}) {
  await pickUser(user);
  fireEvent.change(field(/First name/), { target: { value: 'Ada' } });
  fireEvent.change(field(/Last name/), { target: { value: 'Lovelace' } });
  fireEvent.change(field(/Date of birth/), { target: { value: '1980-04-02' } });
  fireEvent.blur(field(/Date of birth/));
  await choose(user, /Gender/, 'Female');
  fireEvent.change(field(/^Phone \*/), { target: { value: '+15555550100' } });
  fireEvent.change(field(/Email/), { target: { value: 'ada@example.com' } });
  fireEvent.change(field(/Street address/), { target: { value: '1 Main Street' } });
  fireEvent.change(field(/City/), { target: { value: 'Austin' } });
  await choose(user, /State/, state);
  fireEvent.change(field(/Zip code/), { target: { value: zip } });
}

async function save(user: User) {
  // As a user would: once the button takes clicks again (it rests while the form validates or submits).
  await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Save' }));
}

// Filling the whole form takes seconds of simulated typing and clicking on a busy machine (the suite's 120 s limit covers it).
describe('the order form', () => {
  it('counts clinical notes live: 1000 / 1000 is fine, 1001 is refused before anything is sent', async () => {
    const { user } = await open();
    const notes = await screen.findByLabelText(/Clinical notes/);
    expect(screen.getByTestId('clinical_notes-counter')).toHaveTextContent('0 / 1000');

    fireEvent.change(notes, { target: { value: 'x'.repeat(1000) } });
    expect(screen.getByTestId('clinical_notes-counter')).toHaveTextContent('1000 / 1000');

    fireEvent.change(notes, { target: { value: 'x'.repeat(1001) } });
    expect(screen.getByTestId('clinical_notes-counter')).toHaveTextContent('1001 / 1000');
    await save(user);
    expect(await within(control(/Clinical notes/)).findByText('At most 1000 characters: remove 1')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    // The access notes have their own counter.
    fireEvent.change(field(/Access notes/), { target: { value: 'Gate 4711' } });
    expect(screen.getByTestId('patient_address.access_notes-counter')).toHaveTextContent('9 / 1000');
  });

  it('checks the zip code as the service does', async () => {
    const { user } = await open();
    await screen.findByLabelText(/Zip code/);
    await fillPatientAndAddress(user, { zip: '7330' });
    await save(user);
    expect(await within(control(/Zip code/)).findByText(/5 digits, optionally followed by a hyphen and 4 digits/)).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    fireEvent.change(field(/Zip code/), { target: { value: '73301-1234' } });
    await waitFor(() => expect(within(control(/Zip code/)).queryByText(/5 digits/)).not.toBeInTheDocument());
  });

  it('limits the lab tests and add-on markers to the chosen lab account’s lab', async () => {
    const { user } = await open();
    // Only active accounts are offered (the pending Sonora Quest one is not), and "Automatic" is the default.
    await user.click(await screen.findByRole('combobox', { name: /Lab account/ }));
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(4));
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Automatic (the service picks an account)',
      'Demo Health BioReference East (BioReference)',
      'Demo Health Labcorp (Labcorp)',
      'Demo Health Quest Client Bill (Quest)',
    ]);
    await user.keyboard('{Escape}');
    expect(JSON.parse(stack.requests.find((r) => r.path === '/api/lab-accounts')!.query.get('filter')!)).toEqual({ status: 'active' });

    // Without an account: the active tests of every lab, by name (Sonora Quest's only account is pending).
    await user.click(screen.getByRole('combobox', { name: /Lab test/ }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'None (add-on markers only)',
      'Annual Wellness (Quest Diagnostics)',
      'Annual Wellness (Labcorp)',
      'Annual Wellness (BioReference)',
      'Annual Wellness (Sonora Quest) — lab account pending approval',
      'Essential Metabolic Health (Quest Diagnostics)',
      'Essential Metabolic Health (Labcorp)',
      'Essential Metabolic Health (BioReference)',
      'Essential Metabolic Health (Sonora Quest) — lab account pending approval',
      'Heart Health (Labcorp)',
      'Iron Status (Quest Diagnostics)',
      'Lipid Panel (Quest Diagnostics)',
      'Lipid Panel (Sonora Quest) — lab account pending approval',
      "Men's Health (Quest Diagnostics)",
      'Sexual Health Screen (Labcorp)',
      'Thyroid Check (Quest Diagnostics)',
      'Thyroid Check (Labcorp)',
      'Thyroid Check (BioReference)',
      'Thyroid Check (Sonora Quest) — lab account pending approval',
      "Women's Health (Labcorp)",
      'Workplace Wellness Screen (BioReference)',
    ]);
    await user.keyboard('{Escape}');
    expect(screen.getByText(/Add-on markers: choose a lab account or a lab test first/)).toBeInTheDocument();

    await choose(user, /Lab account/, 'Demo Health Labcorp (Labcorp)');
    await waitFor(() =>
      expect(stack.requests.some((r) => r.path === '/api/lab-tests' && r.query.get('filter') === '{"lab_slug":"labcorp","status":"active"}')).toBe(true),
    );
    await user.click(screen.getByRole('combobox', { name: /Lab test/ }));
    await waitFor(async () =>
      expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
        'None (add-on markers only)',
        'Annual Wellness',
        'Essential Metabolic Health',
        'Heart Health',
        'Sexual Health Screen',
        'Thyroid Check',
        "Women's Health",
      ]),
    );
    await user.keyboard('{Escape}');
    expect(screen.getByText('Tests of Labcorp, the chosen account\'s lab')).toBeInTheDocument();
    // Add-on markers come from the same lab.
    expect(await screen.findByRole('combobox', { name: /Add-on markers \(Labcorp\)/ })).toBeInTheDocument();
    await waitFor(() => expect(stack.requests.some((r) => r.path === '/api/markers' && r.query.get('filter')?.includes('"lab_slug":"labcorp"'))).toBe(true));
  });

  it('places the order with an idempotency key and opens it', async () => {
    const { user } = await open();
    await screen.findByLabelText(/Zip code/);
    await choose(user, /Lab account/, 'Demo Health Labcorp (Labcorp)');
    // Labcorp's Thyroid Check is drawn at home.
    await choose(user, /Lab test/, 'Thyroid Check');
    // The lab test proposes its collection method.
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Collection method/ })).toHaveTextContent('At-home phlebotomy'));
    await user.click(await screen.findByRole('combobox', { name: /Add-on markers/ }));
    await user.click(await screen.findByRole('option', { name: 'Glucose' }));
    await fillPatientAndAddress(user);
    fireEvent.change(field(/Access notes/), { target: { value: 'Gate code 4711' } });
    fireEvent.change(field(/Clinical notes/), { target: { value: 'Morning draw please.' } });
    await save(user);

    await waitFor(() => expect(posts()).toHaveLength(1));
    const [post] = posts();
    expect(post!.headers.get('x-idempotency-key')).toMatch(/^labdesk-[0-9a-f]{32}-[0-9a-f]{16}$/);
    expect(post!.headers.get('x-csrf-token')).toBeTruthy();
    expect(post!.body).toEqual({
      user_id: userId,
      lab_account_id: accounts.labcorp.id,
      // Labcorp's Glucose: marker 2001 (a lab's marker id is lab_id * 1000 + n).
      order_set: { lab_test_ids: [labTestId('labcorp', 'Thyroid Check')], add_on: { marker_ids: [2001] } },
      collection_method: 'at_home_phlebotomy',
      patient_details: { first_name: 'Ada', last_name: 'Lovelace', dob: '1980-04-02', gender: 'female', phone_number: '+15555550100', email: 'ada@example.com' },
      patient_address: { country: 'US', first_line: '1 Main Street', city: 'Austin', state: 'TX', zip: '73301', access_notes: 'Gate code 4711' },
      clinical_notes: 'Morning draw please.',
      // Glucose asks whether the patient is fasting; the lab's default answer (No) is filled in.
      aoe_answers: [{ marker_id: 2001, question_id: 20011, answer: 'N' }],
    });
    // On to the new order's page: the order the service made.
    expect(await screen.findByRole('region', { name: 'Order timeline' })).toBeInTheDocument();
    const id = /^#\/orders\/([0-9a-f-]{36})\/show$/.exec(window.location.hash)?.[1];
    expect(id).toBeTruthy();
    const [row] = await stack.service.db.select().from(orders).where(eq(orders.id, id!));
    expect(row).toMatchObject({ userId, labAccountId: accounts.labcorp.id, collectionMethod: 'at_home_phlebotomy', clinicalNotes: 'Morning draw please.' });
    expect(screen.getByTestId('clinical-notes')).toHaveTextContent('Morning draw please.');
  });

  it('shows the service’s validation errors on their fields', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const ironStatus = labTestId('quest', 'Iron Status');
    const { user } = await open();
    await screen.findByLabelText(/Zip code/);
    await choose(user, /Lab account/, 'Demo Health Quest Client Bill (Quest)');
    await choose(user, /Lab test/, 'Iron Status');
    // New York: the Quest account may not client-bill there (the form cannot know; the service does).
    await fillPatientAndAddress(user, { state: 'NY', zip: '10001' });
    await save(user);
    expect(await within(control(/Lab account/)).findByText(/cannot bill client_bill in state NY/)).toBeInTheDocument();
    expect(posts()).toHaveLength(1);

    // Back to Texas; meanwhile the lab test was retired (the form still offers it).
    await setLabTestStatus(stack.service, ironStatus, 'inactive');
    try {
      await choose(user, /State/, 'TX');
      fireEvent.change(field(/Zip code/), { target: { value: '73301' } });
      await save(user);
      expect(await within(control(/Lab test/)).findByText(/lab tests not orderable \(not active\): "Iron Status"/)).toBeInTheDocument();
      expect(posts()).toHaveLength(2);
    } finally {
      await setLabTestStatus(stack.service, ironStatus, 'active');
    }
    expect(window.location.hash).toBe('#/orders/create');
  });

  it('resends the same values with the same key (so a retry cannot make two orders), and changed values with a new one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // The first two submits find the order still being placed: the service's 409, passed on by the
    // BFF (a race the real stack cannot stage on demand).
    const stillBeingPlaced = 'A request with this idempotency key is still being processed; retry later to get its answer';
    failNext(stack, 'post', '/api/orders', 409, { message: stillBeingPlaced });
    failNext(stack, 'post', '/api/orders', 409, { message: stillBeingPlaced });
    const { user } = await open();
    await screen.findByLabelText(/Zip code/);
    await choose(user, /Lab test/, /^Essential Metabolic Health \(Quest Diagnostics\)/);
    await fillPatientAndAddress(user);
    await save(user);
    expect(await screen.findByText(stillBeingPlaced)).toBeInTheDocument();
    await save(user);
    await waitFor(() => expect(posts()).toHaveLength(2));
    const [first, second] = posts();
    expect(second!.headers.get('x-idempotency-key')).toBe(first!.headers.get('x-idempotency-key'));

    fireEvent.change(field(/Clinical notes/), { target: { value: 'Changed my mind' } });
    await save(user);
    await waitFor(() => expect(posts()).toHaveLength(3));
    expect(posts()[2]!.headers.get('x-idempotency-key')).not.toBe(first!.headers.get('x-idempotency-key'));
    expect(posts()[2]!.body).toMatchObject({ lab_test_id: labTestId('quest', 'Essential Metabolic Health'), clinical_notes: 'Changed my mind' });
    expect(await screen.findByRole('region', { name: 'Order timeline' })).toBeInTheDocument();
  });

  it('is offered to coordinators from the orders list (lab operations get no create button)', async () => {
    await stack.signInAs('coordinator');
    renderOnStack(stack, '/orders');
    expect(await screen.findByRole('link', { name: /create/i })).toHaveAttribute('href', '#/orders/create');
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SAMPLE_LAB_ACCOUNTS, SAMPLE_LAB_TESTS, SAMPLE_USERS, type RecordedRequest, type StaffAccount } from './fakeBff';
import { renderApp } from './renderApp';

type User = ReturnType<typeof userEvent.setup>;

const COORDINATOR: StaffAccount = {
  email: 'coordinator@labdesk.test',
  password: 'a long enough password',
  user: { id: 'staff-coordinator', email: 'coordinator@labdesk.test', name: 'Cora Coordinator', role: 'coordinator' },
};
const open = (options: Parameters<typeof renderApp>[0] = {}) =>
  renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [COORDINATOR], ...options }, '/orders/create');

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === '/api/orders');
const field = (label: RegExp) => screen.getByLabelText(label);
/** The MUI form control (input, label and helper text) of a labelled input. */
const control = (label: RegExp) => field(label).closest('.MuiFormControl-root') as HTMLElement;

async function choose(user: User, label: RegExp, option: string | RegExp) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
}

async function pickUser(user: User) {
  const input = await screen.findByRole('combobox', { name: /User \(client user id\)/ });
  await user.type(input, 'pt-7f');
  await user.click(await screen.findByRole('option', { name: 'pt-7f3a2c91' }));
}

/** Everything required, with valid values; the lab test and account are left to each test. */
async function fillPatientAndAddress(user: User, zip = '73301') {
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
  await choose(user, /State/, 'TX');
  fireEvent.change(field(/Zip code/), { target: { value: zip } });
}

const save = (user: User) => user.click(screen.getByRole('button', { name: 'Save' }));

describe('the order form', () => {
  it('counts clinical notes live: 1000 / 1000 is fine, 1001 is refused before anything is sent', async () => {
    const { user, bff } = open();
    const notes = await screen.findByLabelText(/Clinical notes/);
    expect(screen.getByTestId('clinical_notes-counter')).toHaveTextContent('0 / 1000');

    fireEvent.change(notes, { target: { value: 'x'.repeat(1000) } });
    expect(screen.getByTestId('clinical_notes-counter')).toHaveTextContent('1000 / 1000');

    fireEvent.change(notes, { target: { value: 'x'.repeat(1001) } });
    expect(screen.getByTestId('clinical_notes-counter')).toHaveTextContent('1001 / 1000');
    await save(user);
    expect(await within(control(/Clinical notes/)).findByText('At most 1000 characters: remove 1')).toBeInTheDocument();
    expect(posts(bff.requests)).toHaveLength(0);

    // The access notes have their own counter.
    fireEvent.change(field(/Access notes/), { target: { value: 'Gate 4711' } });
    expect(screen.getByTestId('patient_address.access_notes-counter')).toHaveTextContent('9 / 1000');
  });

  it('checks the zip code as the service does', async () => {
    const { user, bff } = open();
    await screen.findByLabelText(/Zip code/);
    await fillPatientAndAddress(user, '7330');
    await save(user);
    expect(await within(control(/Zip code/)).findByText(/5 digits, optionally followed by a hyphen and 4 digits/)).toBeInTheDocument();
    expect(posts(bff.requests)).toHaveLength(0);

    fireEvent.change(field(/Zip code/), { target: { value: '73301-1234' } });
    await waitFor(() => expect(within(control(/Zip code/)).queryByText(/5 digits/)).not.toBeInTheDocument());
  });

  it('limits the lab tests and add-on markers to the chosen lab account’s lab', async () => {
    const { user, bff } = open();
    // Only active accounts are offered, and "Automatic" is the default.
    await user.click(await screen.findByRole('combobox', { name: /Lab account/ }));
    const accounts = await screen.findByRole('listbox');
    expect(within(accounts).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Automatic (the service picks an account)',
      'Demo Quest Client Bill (Quest)',
      'Demo Labcorp (Labcorp)',
    ]);
    await user.keyboard('{Escape}');
    expect(JSON.parse(bff.requests.find((r) => r.path === '/api/lab-accounts')!.query.get('filter')!)).toEqual({ status: 'active' });

    // Without an account: the tests of every lab.
    await user.click(screen.getByRole('combobox', { name: /Lab test/ }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'None (add-on markers only)',
      'Quest Metabolic Panel (Quest Diagnostics)',
      'Quest Thyroid Kit (Quest Diagnostics)',
      'Labcorp Heart Health (Labcorp)',
    ]);
    await user.keyboard('{Escape}');
    expect(screen.getByText(/Add-on markers: choose a lab account or a lab test first/)).toBeInTheDocument();

    await choose(user, /Lab account/, 'Demo Labcorp (Labcorp)');
    await waitFor(() =>
      expect(bff.requests.some((r) => r.path === '/api/lab-tests' && r.query.get('filter') === '{"lab_slug":"labcorp","status":"active"}')).toBe(true),
    );
    await user.click(screen.getByRole('combobox', { name: /Lab test/ }));
    await waitFor(async () =>
      expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['None (add-on markers only)', 'Labcorp Heart Health']),
    );
    await user.keyboard('{Escape}');
    expect(screen.getByText('Tests of Labcorp, the chosen account\'s lab')).toBeInTheDocument();
    // Add-on markers come from the same lab.
    expect(await screen.findByRole('combobox', { name: /Add-on markers \(Labcorp\)/ })).toBeInTheDocument();
    await waitFor(() => expect(bff.requests.some((r) => r.path === '/api/markers' && r.query.get('filter')?.includes('"lab_slug":"labcorp"'))).toBe(true));
  });

  it('places the order with an idempotency key and opens it', async () => {
    const { user, bff } = open();
    await screen.findByLabelText(/Zip code/);
    await choose(user, /Lab account/, 'Demo Labcorp (Labcorp)');
    await choose(user, /Lab test/, 'Labcorp Heart Health');
    // The lab test proposes its collection method.
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Collection method/ })).toHaveTextContent('At-home phlebotomy'));
    await user.click(await screen.findByRole('combobox', { name: /Add-on markers/ }));
    await user.click(await screen.findByRole('option', { name: 'Glucose' }));
    await fillPatientAndAddress(user);
    fireEvent.change(field(/Access notes/), { target: { value: 'Gate code 4711' } });
    fireEvent.change(field(/Clinical notes/), { target: { value: 'Morning draw please.' } });
    await save(user);

    await waitFor(() => expect(posts(bff.requests)).toHaveLength(1));
    const [post] = posts(bff.requests);
    expect(post!.headers.get('x-idempotency-key')).toMatch(/^labdesk-[0-9a-f]{32}-[0-9a-f]{16}$/);
    expect(post!.headers.get('x-csrf-token')).toBeTruthy();
    expect(post!.body).toEqual({
      user_id: SAMPLE_USERS[0]!.id,
      lab_account_id: SAMPLE_LAB_ACCOUNTS[1]!.id,
      order_set: { lab_test_ids: [SAMPLE_LAB_TESTS[2]!.id], add_on: { marker_ids: [2001] } },
      collection_method: 'at_home_phlebotomy',
      patient_details: { first_name: 'Ada', last_name: 'Lovelace', dob: '1980-04-02', gender: 'female', phone_number: '+15555550100', email: 'ada@example.com' },
      patient_address: { country: 'US', first_line: '1 Main Street', city: 'Austin', state: 'TX', zip: '73301', access_notes: 'Gate code 4711' },
      clinical_notes: 'Morning draw please.',
    });
    // On to the new order's page.
    expect(await screen.findByRole('region', { name: 'Order timeline' })).toBeInTheDocument();
    expect(window.location.hash).toBe(`#/orders/${bff.orders[0]!.id}/show`);
    expect(screen.getByTestId('clinical-notes')).toHaveTextContent('Morning draw please.');
  });

  it('shows the service’s validation errors on their fields', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, bff } = open({
      createOrder: () => ({
        status: 422,
        body: {
          message: 'patient_address.zip: no such zip code in TX',
          errors: { 'patient_address.zip': 'no such zip code in TX', 'order_set.lab_test_ids': 'lab test is inactive' },
        },
      }),
    });
    await screen.findByLabelText(/Zip code/);
    await choose(user, /Lab account/, 'Demo Quest Client Bill (Quest)');
    await choose(user, /Lab test/, 'Quest Metabolic Panel');
    await fillPatientAndAddress(user);
    await save(user);

    expect(await within(control(/Zip code/)).findByText('no such zip code in TX')).toBeInTheDocument();
    expect(within(control(/Lab test/)).getByText('lab test is inactive')).toBeInTheDocument();
    expect(posts(bff.requests)).toHaveLength(1);
    expect(window.location.hash).toBe('#/orders/create');
  });

  it('resends the same values with the same key (so a retry cannot make two orders), and changed values with a new one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let calls = 0;
    const { user, bff } = open({
      createOrder: () => (++calls <= 2 ? { status: 409, body: { message: 'The same order is still being placed; try again in a moment' } } : null),
    });
    await screen.findByLabelText(/Zip code/);
    await choose(user, /Lab test/, /^Quest Metabolic Panel/);
    await fillPatientAndAddress(user);
    await save(user);
    expect(await screen.findByText('The same order is still being placed; try again in a moment')).toBeInTheDocument();
    await save(user);
    await waitFor(() => expect(posts(bff.requests)).toHaveLength(2));
    const [first, second] = posts(bff.requests);
    expect(second!.headers.get('x-idempotency-key')).toBe(first!.headers.get('x-idempotency-key'));

    fireEvent.change(field(/Clinical notes/), { target: { value: 'Changed my mind' } });
    await save(user);
    await waitFor(() => expect(posts(bff.requests)).toHaveLength(3));
    expect(posts(bff.requests)[2]!.headers.get('x-idempotency-key')).not.toBe(first!.headers.get('x-idempotency-key'));
    expect(posts(bff.requests)[2]!.body).toMatchObject({ lab_test_id: SAMPLE_LAB_TESTS[0]!.id, clinical_notes: 'Changed my mind' });
    expect(await screen.findByRole('region', { name: 'Order timeline' })).toBeInTheDocument();
  });

  it('is offered to coordinators from the orders list (lab operations get no create button)', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, staff: [COORDINATOR] }, '/orders');
    expect(await screen.findByRole('link', { name: /create/i })).toHaveAttribute('href', '#/orders/create');
  });
});

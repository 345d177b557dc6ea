/**
 * A user's page on the real stack: users and their mindfulness sessions seeded in the real
 * service, the profile and the chart read through the real BFF.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayIn } from '../../src/components/dateRange';
import { renderOnStack } from './renderApp';
import { failNext, startRealStack, type RealStack } from './realStack';
import { clean, readReport } from './seed/parser';

let stack: RealStack;
/** The patient with a full profile and sessions, one with nothing optional set, and one (in Chicago) with no sessions. */
let patient: string;
let bare: string;
let quiet: string;

beforeAll(async () => {
  stack = await startRealStack();
  const { team } = stack.service;
  [patient, bare, quiet] = (await stack.service.addUsers(team, [
    { clientUserId: 'pt-7f3a2c91', createdOn: new Date('2026-05-01T12:00:00Z'), sources: ['oura', 'fitbit'] },
    { clientUserId: 'pt-99b01d44', createdOn: new Date('2026-05-04T15:45:00Z') },
    { clientUserId: 'pt-c4e2a7f3', createdOn: new Date('2026-05-06T07:10:00Z'), fallbackTimeZone: 'America/Chicago' },
  ])) as [string, string, string];
  // The fallback values as a client sets them through the service's API (source "manual").
  const patched = await stack.service.call(team, 'PATCH', `/v2/user/${patient}`, {
    fallback_time_zone: 'America/Chicago',
    fallback_birth_date: '1980-04-02',
    ingestion_start: '2025-01-01',
  });
  if (patched.status !== 204) throw new Error(`patching the patient answered ${patched.status}`);
  // Oura and Fitbit sessions (the real provider catalogue has no Calm) on the last two days of the
  // default range (the patient's yesterday and today): 52 minutes in 3 sessions. Each carries its
  // own UTC offset (0) and starts at noon, so its day is that date whatever the hour the test runs.
  const today = todayIn('America/Chicago');
  const yesterday = addDays(today, -1);
  await stack.service.addPoints(patient, [
    { provider: 'oura', start: `${yesterday}T12:00:00Z`, minutes: 20, offset: 0 },
    { provider: 'oura', start: `${today}T12:00:00Z`, minutes: 20, offset: 0 },
    { provider: 'fitbit', start: `${today}T12:30:00Z`, minutes: 12, offset: 0 },
  ]);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

const showPath = (id: string) => `/users/${id}/show`;
const mindfulnessCalls = () => stack.requests.filter((r) => r.path.endsWith('/mindfulness-minutes'));

async function openSignedIn(path = '/users') {
  await stack.signInAs('admin');
  return renderOnStack(stack, path);
}

describe('a user page', () => {
  it('opens from the list and shows the profile, sources and the mindfulness chart', async () => {
    const { user } = await openSignedIn();
    await user.click(await screen.findByText('pt-7f3a2c91'));

    const card = await screen.findByRole('region', { name: 'Profile' });
    expect(await within(card).findByText(patient)).toBeInTheDocument();
    expect(within(card).getByText('1980-04-02')).toBeInTheDocument();
    expect(within(card).getByText('America/Chicago (from manual)')).toBeInTheDocument();
    expect(within(card).getByText('2025-01-01')).toBeInTheDocument();
    expect(within(card).getByText('no bound')).toBeInTheDocument(); // ingestion_end is null

    const sources = screen.getByRole('list', { name: 'Connected sources' });
    expect(within(sources).getByText('Oura')).toBeInTheDocument();
    expect(within(sources).getAllByText(/^Connected /)).toHaveLength(2);

    const chartCard = screen.getByRole('region', { name: 'Mindfulness minutes' });
    expect(await within(chartCard).findByText(/minutes in/)).toHaveTextContent('52 minutes in 3 sessions');
    expect(within(chartCard).getByText("Days are in the patient's time zone: America/Chicago")).toBeInTheDocument();
    const figure = within(chartCard).getByRole('figure');
    expect(await within(figure).findByText('Oura')).toBeInTheDocument(); // legend, once recharts loaded
    expect(within(figure).getByText('Fitbit')).toBeInTheDocument();
    expect(figure.querySelectorAll('.recharts-bar')).toHaveLength(2); // one stacked series per provider

    // Default range: the last 30 days, ending on the patient's today.
    const today = todayIn('America/Chicago');
    const call = mindfulnessCalls()[0];
    expect(call?.path).toBe(`/api/users/${patient}/mindfulness-minutes`);
    expect(call?.query.get('end_date')).toBe(today);
    expect(call?.query.get('start_date')).toBe(addDays(today, -29));
  });

  it('re-asks for a preset range', async () => {
    const { user } = await openSignedIn(showPath(patient));
    await screen.findByText(/minutes in/);
    await user.click(screen.getByRole('button', { name: '7 days' }));

    await waitFor(() => expect(mindfulnessCalls()).toHaveLength(2));
    const today = todayIn('America/Chicago');
    expect(mindfulnessCalls()[1]?.query.get('start_date')).toBe(addDays(today, -6));
    expect(screen.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    // Both session days are within the last 7 days.
    await waitFor(() => expect(screen.getByText(/minutes in/)).toHaveTextContent('52 minutes in 3 sessions'));
  });

  it('refuses a range that ends before it starts, without asking the server', async () => {
    await openSignedIn(showPath(patient));
    await screen.findByText(/minutes in/);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2099-01-01' } });

    expect(await screen.findByText('The start date must be on or before the end date.')).toBeInTheDocument();
    expect(screen.queryByText(/minutes in/)).not.toBeInTheDocument();
    expect(mindfulnessCalls()).toHaveLength(1);
  });

  it('says when there were no sessions in the range', async () => {
    await openSignedIn(showPath(quiet));
    const today = todayIn('America/Chicago');
    expect(await screen.findByText(`No mindfulness sessions between ${addDays(today, -29)} and ${today}.`)).toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
  });

  it('explains a failure and lets the user try again', async () => {
    // react-admin logs every failed data call to the console in development; expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // A slow upstream at one moment: the real stack cannot give it on demand.
    failNext(stack, 'get', `/api/users/${quiet}/mindfulness-minutes`, 502, { message: 'The health-data service did not answer in time.' });
    const { user } = await openSignedIn(showPath(quiet));

    expect(await screen.findByText(/Could not load mindfulness minutes/)).toHaveTextContent(
      'Could not load mindfulness minutes: The health-data service did not answer in time. Try again or narrow the date range.',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No mindfulness sessions between/)).toBeInTheDocument();
    // The failed call and the retry.
    expect(mindfulnessCalls().map((r) => r.canned ?? false)).toEqual([true, false]);
  });

  it('shows a profile with nothing optional set', async () => {
    await openSignedIn(showPath(bare));
    const card = await screen.findByRole('region', { name: 'Profile' });
    expect(await within(card).findByText('pt-99b01d44')).toBeInTheDocument();
    expect(within(card).getAllByText('Not set')).toHaveLength(2); // time zone, birth date
    expect(within(card).getAllByText('no bound')).toHaveLength(2);
    expect(screen.getByText('No sources connected yet.')).toBeInTheDocument();
    // Without a fallback zone the real BFF counts days in UTC, and says so.
    expect(await screen.findByText("Days are in the patient's time zone: UTC")).toBeInTheDocument();
  });
});

describe('a user page’s Biomarkers tab', () => {
  /** A patient whose glucose values are a range and a unit UCUM cannot convert: nothing to chart. */
  let unchartable: string;

  beforeAll(async () => {
    const { service } = stack;
    [unchartable] = (await service.addUsers(service.team, [{ clientUserId: 'pt-5e0b19c2', fallbackTimeZone: 'America/Chicago' }])) as [string];
    // An order naming the patient as the stand-in reports do, so the reports complete into the history.
    await service.placeOrder(service.team, unchartable);
    const glucose = (value: string, units: string) => ({
      test_name: 'Glucose',
      value,
      units,
      interpretation: 'normal' as const,
      loinc_matches: [{ loinc_code: '2345-7', loinc_name: 'Glucose [Mass/volume] in Serum or Plasma', display_name: 'Glucose', confidence_score: 0.98 }],
    });
    for (const [collected, result] of [
      ['2026-01-15', glucose('<70', 'mg/dL')],
      ['2026-02-15', glucose('5', 'mg')],
    ] as const) {
      const report = clean();
      if (!report.ok) throw new Error('the clean report is a failure');
      report.data.metadata = { ...report.data.metadata, date_collected: collected };
      report.data.results = [result];
      await readReport(service, service.team, unchartable, {}, report);
    }
  });

  it('says why there is no chart when no value is a number in the analyte’s unit, and lists the values', async () => {
    await openSignedIn(`${showPath(unchartable)}/biomarkers`);
    const table = await screen.findByRole('table', { name: 'Biomarkers' });
    const row = within(table).getByRole('row', { name: 'Glucose' });
    expect(within(row).getAllByRole('cell').at(-1)).toHaveTextContent('2');
    // Neither value can be compared with the other: no trend arrow.
    expect(within(row).queryByTitle(/Rising|Falling|Stable/)).not.toBeInTheDocument();

    const chart = await screen.findByRole('region', { name: 'Biomarker chart' });
    expect(await within(chart).findByText('No numeric values in a common unit to chart; see the table below.')).toBeInTheDocument();
    expect(chart.querySelector('.recharts-wrapper')).toBeNull();
    expect(within(chart).getByText(/<70 mg\/dL \(Uploaded report/)).toHaveTextContent(/5 mg \(Uploaded report/);
  });
});

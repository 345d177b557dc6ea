import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { addDays, todayIn } from '../../src/components/dateRange';
import { emptyMindfulness, SAMPLE_USERS } from './fakeBff';
import { renderApp } from './renderApp';

const patient = SAMPLE_USERS[0]!;
const showPath = `/users/${patient.id}/show`;
const mindfulnessCalls = (requests: { path: string; query: URLSearchParams }[]) =>
  requests.filter((r) => r.path.endsWith('/mindfulness-minutes'));

describe('a user page', () => {
  it('opens from the list and shows the profile, sources and the mindfulness chart', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, signedIn: true });
    await user.click(await screen.findByText('pt-7f3a2c91'));

    const profile = await screen.findByText('Profile');
    const card = profile.closest('.MuiCard-root') as HTMLElement;
    expect(within(card).getByText(patient.id)).toBeInTheDocument();
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
    expect(within(figure).getByText('Calm')).toBeInTheDocument();
    expect(figure.querySelectorAll('.recharts-bar')).toHaveLength(2); // one stacked series per provider

    // Default range: the last 30 days, ending on the patient's today.
    const today = todayIn('America/Chicago');
    const call = mindfulnessCalls(bff.requests)[0];
    expect(call?.query.get('end_date')).toBe(today);
    expect(call?.query.get('start_date')).toBe(addDays(today, -29));
  });

  it('re-asks for a preset range', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, signedIn: true }, showPath);
    await screen.findByText(/minutes in/);
    await user.click(screen.getByRole('button', { name: '7 days' }));

    await waitFor(() => expect(mindfulnessCalls(bff.requests)).toHaveLength(2));
    const today = todayIn('America/Chicago');
    expect(mindfulnessCalls(bff.requests)[1]?.query.get('start_date')).toBe(addDays(today, -6));
    expect(screen.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('refuses a range that ends before it starts, without asking the server', async () => {
    const { bff } = renderApp({ users: SAMPLE_USERS, signedIn: true }, showPath);
    await screen.findByText(/minutes in/);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2099-01-01' } });

    expect(await screen.findByText('The start date must be on or before the end date.')).toBeInTheDocument();
    expect(screen.queryByText(/minutes in/)).not.toBeInTheDocument();
    expect(mindfulnessCalls(bff.requests)).toHaveLength(1);
  });

  it('says when there were no sessions in the range', async () => {
    renderApp({ users: SAMPLE_USERS, signedIn: true, mindfulness: emptyMindfulness }, showPath);
    const today = todayIn('America/Chicago');
    expect(await screen.findByText(`No mindfulness sessions between ${addDays(today, -29)} and ${today}.`)).toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
  });

  it('explains a failure and lets the user try again', async () => {
    // react-admin logs every failed data call to the console in development; expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let calls = 0;
    const { user } = renderApp(
      {
        users: SAMPLE_USERS,
        signedIn: true,
        mindfulness: (userId, start, end) => {
          calls += 1;
          return calls === 1
            ? { status: 502, body: { message: 'The health-data service did not answer in time.' } }
            : emptyMindfulness(userId, start, end);
        },
      },
      showPath,
    );

    expect(await screen.findByText(/Could not load mindfulness minutes/)).toHaveTextContent(
      'Could not load mindfulness minutes: The health-data service did not answer in time. Try again or narrow the date range.',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No mindfulness sessions between/)).toBeInTheDocument();
  });

  it('shows a profile with nothing optional set', async () => {
    const bare = SAMPLE_USERS[1]!;
    renderApp({ users: SAMPLE_USERS, signedIn: true, mindfulness: emptyMindfulness }, `/users/${bare.id}/show`);
    const card = (await screen.findByText('Profile')).closest('.MuiCard-root') as HTMLElement;
    expect(await within(card).findByText(bare.client_user_id)).toBeInTheDocument();
    expect(within(card).getAllByText('Not set')).toHaveLength(2); // time zone, birth date
    expect(within(card).getAllByText('no bound')).toHaveLength(2);
    expect(screen.getByText('No sources connected yet.')).toBeInTheDocument();
  });
});

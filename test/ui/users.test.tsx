/** The users list on the real stack: users seeded in the real service, read through the real BFF. */
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/App';
import { startFirstPage } from '../../src/firstPage';
import { forgetSession } from '../../src/providers/session';
import { renderOnStack, signIn } from './renderApp';
import { failNext, STAFF_PASSWORD, staffEmail, startRealStack, type RealStack } from './realStack';

let stack: RealStack;
beforeAll(async () => {
  stack = await startRealStack();
  const { team } = stack.service;
  await stack.service.addUsers(team, [
    { clientUserId: 'pt-7f3a2c91', createdOn: new Date('2026-05-01T12:00:00Z'), fallbackTimeZone: 'America/Chicago', sources: ['oura', 'whoop'] },
    { clientUserId: 'pt-99b01d44', createdOn: new Date('2026-05-04T15:45:00Z') },
    { clientUserId: 'pt-c4e2a7f3', createdOn: new Date('2026-05-06T07:10:00Z'), sources: ['withings'] },
  ]);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.reset());

/** The users list as a signed-in admin opens it. */
async function openSignedIn() {
  await stack.signInAs('admin');
  return renderOnStack(stack, '/users');
}

const rows = () => screen.getAllByRole('row').slice(1); // minus the header row

describe('users list', () => {
  it('a cold load of /#/users asks who is signed in and for the first rows once each, before React renders (main.tsx)', async () => {
    await stack.signInAs('admin');
    forgetSession();
    localStorage.clear();
    window.history.replaceState(null, '', '/#/users');
    startFirstPage(window.location.hash);
    render(<App />);

    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);
    const gets = (path: string) => stack.requests.filter((r) => r.method === 'GET' && r.path === path);
    // react-admin's checkAuth, getPermissions and getIdentity share the one session check.
    expect(gets('/api/auth/me')).toHaveLength(1);
    // The list took the prefetched answer instead of asking again.
    expect(gets('/api/users')).toHaveLength(1);
    expect(gets('/api/users')[0]!.query.get('range')).toBe('[0,9]');
    // The menu's badges (the overview: several calls to the service) wait until the rows are answered.
    await waitFor(() => expect(gets('/api/overview')).toHaveLength(1));
    expect(gets('/api/overview')[0]!.sentStep).toBeGreaterThan(gets('/api/users')[0]!.answeredStep!);
  });

  it('after sign-in, lists users with their connected sources', async () => {
    const { user } = renderOnStack(stack);
    await signIn(user, staffEmail('admin'), STAFF_PASSWORD);
    // Sign-in lands on the overview; the users list is one menu item away.
    await screen.findByRole('heading', { name: 'What needs you' });
    await user.click(screen.getByRole('menuitem', { name: /users/i }));

    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);

    const first = within(rows()[0]!);
    expect(first.getByText('Oura')).toBeInTheDocument();
    expect(first.getByText('WHOOP')).toBeInTheDocument();
    expect(first.getByText('America/Chicago')).toBeInTheDocument();
    expect(within(rows()[1]!).getByText('No sources')).toBeInTheDocument();
    expect(within(rows()[2]!).getByText('Withings')).toBeInTheDocument();

    // Provider logos live on outside hosts: the page must never load them.
    expect(document.querySelector('img[src^="http"]')).toBeNull();

    // react-admin's default sort is the BFF's natural order, and the list uses ra-data-simple-rest's URLs.
    const list = stack.requests.find((r) => r.path === '/api/users');
    expect(list?.query.get('sort')).toBe('["id","ASC"]');
    expect(list?.query.get('range')).toBe('[0,9]');
  });

  it('only offers sorting on the creation date, and says its times are local', async () => {
    const { user } = await openSignedIn();
    await screen.findByText('pt-7f3a2c91');

    const headers = screen.getAllByRole('columnheader');
    const sortable = headers.filter((h) => h.querySelector('.MuiTableSortLabel-root'));
    expect(sortable).toHaveLength(1);
    expect(sortable[0]).toHaveTextContent(/^Created/);
    expect(screen.getByTitle(/Times are shown in your local time zone/)).toBeInTheDocument();

    await user.click(within(sortable[0]!).getByRole('button'));
    await waitFor(() => expect(stack.requests.filter((r) => r.path === '/api/users').at(-1)?.query.get('sort')).toMatch(/^\["created_on",/));
  });

  it('searches by client user id', async () => {
    const { user } = await openSignedIn();
    await screen.findByText('pt-7f3a2c91');

    await user.type(screen.getByRole('textbox', { name: 'Search by client user id' }), '7F3');

    await waitFor(() => expect(screen.queryByText('pt-99b01d44')).not.toBeInTheDocument());
    expect(screen.getByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(screen.getByText('pt-c4e2a7f3')).toBeInTheDocument(); // "…a7f3" matches too
    expect(stack.requests.filter((r) => r.path === '/api/users').at(-1)?.query.get('filter')).toBe('{"q":"7F3"}');
  });

  it('says the list could not be read, not that nobody matches, and reads it again on request', async () => {
    // react-admin logs every failed data call to the console in development; expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // A service unreachable for a moment: the real stack cannot give it on demand.
    failNext(stack, 'get', '/api/users', 502, { message: 'The service cannot be reached; try again in a moment' });
    const { user } = await openSignedIn();

    expect(await screen.findByText(/Could not load users/)).toHaveTextContent(
      'Could not load users: The service cannot be reached; try again in a moment. Nothing was changed.',
    );
    expect(screen.queryByText('No users match this search.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);
  });

  it('says when a search matches nobody', async () => {
    const { user } = await openSignedIn();
    await screen.findByText('pt-7f3a2c91');
    await user.type(screen.getByRole('textbox', { name: 'Search by client user id' }), 'nobody-here');
    expect(await screen.findByText('No users match this search.')).toBeInTheDocument();
  });

  it('explains where users come from when there are none', async () => {
    // Another team's console: a BFF holding the key of a team with no users yet.
    stack.useBffApp(await stack.bff.buildApp({ serviceApiKey: stack.service.otherTeam.apiKey }));
    await stack.signInAs('admin');
    renderOnStack(stack, '/users');
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
    expect(screen.getByText('POST /v2/user')).toBeInTheDocument();
    stack.useBffApp(null);
  });
});

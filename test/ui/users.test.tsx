import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SAMPLE_USERS } from './fakeBff';
import { renderApp, signIn } from './renderApp';

const rows = () => screen.getAllByRole('row').slice(1); // minus the header row

describe('users list', () => {
  it('after sign-in, lists users with their connected sources', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS });
    await signIn(user);

    expect(await screen.findByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);

    const first = within(rows()[0]!);
    expect(first.getByText('Oura')).toBeInTheDocument();
    expect(first.getByText('Calm')).toBeInTheDocument();
    expect(first.getByText('America/Chicago')).toBeInTheDocument();
    expect(within(rows()[1]!).getByText('No sources')).toBeInTheDocument();
    expect(within(rows()[2]!).getByText('Withings')).toBeInTheDocument();

    // Provider logos live on outside hosts: the page must never load them.
    expect(document.querySelector('img[src^="http"]')).toBeNull();

    // react-admin's default sort is the BFF's natural order, and the list uses ra-data-simple-rest's URLs.
    const list = bff.requests.find((r) => r.path === '/api/users');
    expect(list?.query.get('sort')).toBe('["id","ASC"]');
    expect(list?.query.get('range')).toBe('[0,9]');
  });

  it('only offers sorting on the creation date, and says its times are local', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, signedIn: true });
    await screen.findByText('pt-7f3a2c91');

    const headers = screen.getAllByRole('columnheader');
    const sortable = headers.filter((h) => h.querySelector('.MuiTableSortLabel-root'));
    expect(sortable).toHaveLength(1);
    expect(sortable[0]).toHaveTextContent(/^Created/);
    expect(screen.getByTitle(/Times are shown in your local time zone/)).toBeInTheDocument();

    await user.click(within(sortable[0]!).getByRole('button'));
    await waitFor(() => expect(bff.requests.at(-1)?.query.get('sort')).toMatch(/^\["created_on",/));
  });

  it('searches by client user id', async () => {
    const { user, bff } = renderApp({ users: SAMPLE_USERS, signedIn: true });
    await screen.findByText('pt-7f3a2c91');

    await user.type(screen.getByRole('textbox', { name: 'Search by client user id' }), '7F3');

    await waitFor(() => expect(screen.queryByText('pt-99b01d44')).not.toBeInTheDocument());
    expect(screen.getByText('pt-7f3a2c91')).toBeInTheDocument();
    expect(screen.getByText('pt-c4e2a7f3')).toBeInTheDocument(); // "…a7f3" matches too
    expect(bff.requests.at(-1)?.query.get('filter')).toBe('{"q":"7F3"}');
  });

  it('says when a search matches nobody', async () => {
    const { user } = renderApp({ users: SAMPLE_USERS, signedIn: true });
    await screen.findByText('pt-7f3a2c91');
    await user.type(screen.getByRole('textbox', { name: 'Search by client user id' }), 'nobody-here');
    expect(await screen.findByText('No users match this search.')).toBeInTheDocument();
  });

  it('explains where users come from when there are none', async () => {
    renderApp({ users: [], signedIn: true });
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
    expect(screen.getByText('POST /v2/user')).toBeInTheDocument();
  });
});

/**
 * What a person sees of a cursor-paginated list (no total from the BFF): the count of the rows
 * actually shown, never a full page's, and an empty list's own empty state without a pager.
 */
import { render, screen } from '@testing-library/react';
import { AdminContext, DataTable, defaultI18nProvider, List, ResourceContextProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from './dataProvider';

function answerRows(rows: { id: string; name: string }[], contentRange: string, hasNextPage: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(rows), { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': contentRange, 'X-Has-Next-Page': String(hasNextPage) } })),
  );
}

const Jobs = () => (
  <AdminContext dataProvider={dataProvider} i18nProvider={defaultI18nProvider}>
    <ResourceContextProvider value="parser-jobs">
      <List empty={<p>No reports waiting</p>} perPage={25}>
        <DataTable bulkActionButtons={false}>
          <DataTable.Col source="name" />
        </DataTable>
      </List>
    </ResourceContextProvider>
  </AdminContext>
);

afterEach(() => vi.unstubAllGlobals());

describe('a list without a total', () => {
  it('counts the three rows it shows, not a full page', async () => {
    answerRows([{ id: '1', name: 'first' }, { id: '2', name: 'second' }, { id: '3', name: 'third' }], 'parser-jobs 0-2/*', false);
    render(<Jobs />);
    expect(await screen.findByText('third')).toBeInTheDocument();
    expect(screen.getByText('1-3 of 3')).toBeInTheDocument();
    expect(screen.queryByText(/of 25/)).not.toBeInTheDocument();
  });

  it('shows an empty list’s empty state, and no pager beside it', async () => {
    answerRows([], 'parser-jobs */*', false);
    render(<Jobs />);
    expect(await screen.findByText('No reports waiting')).toBeInTheDocument();
    expect(screen.queryByText(/\d+-\d+ of/)).not.toBeInTheDocument();
  });

  it('says there is more while the BFF has a next page', async () => {
    answerRows(Array.from({ length: 25 }, (_, i) => ({ id: String(i), name: `job ${i}` })), 'parser-jobs 0-24/*', true);
    render(<Jobs />);
    expect(await screen.findByText('job 24')).toBeInTheDocument();
    expect(screen.getByText('1-25 of more than 25')).toBeInTheDocument();
  });
});

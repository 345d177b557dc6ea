import simpleRestProvider from 'ra-data-simple-rest';
import { describe, expect, it } from 'vitest';
import { filter, listQuery, RecordId, sortable } from './list';

const Orders = listQuery({
  filter: { status: filter.stringList(), q: filter.string(200), user_id: filter.uuid(), paid: filter.boolean(), lab_id: filter.intList(), from: filter.dateBound('start'), to: filter.dateBound('end') },
  sort: { ...sortable('id', 'created_at'), newest: ['DESC'] },
  defaultSort: { field: 'created_at', order: 'DESC' },
});

/** The parameter a refusal names (`range`, `sort`, `filter.status`). */
const refusal = (query: Record<string, unknown>) => {
  const r = Orders.safeParse(query);
  expect(r.success).toBe(false);
  return r.error!.issues.map((i) => ({ at: i.path.join('.'), message: i.message }))[0]!;
};

describe('list queries (react-admin’s range, sort and filter)', () => {
  it('parses what ra-data-simple-rest sends', async () => {
    let url = '';
    const provider = simpleRestProvider('http://bff/api', async (requested) => {
      url = requested;
      return { status: 200, headers: new Headers({ 'Content-Range': 'orders 50-74/103' }), body: '[]', json: [] };
    });
    await provider.getList('orders', {
      pagination: { page: 3, perPage: 25 },
      sort: { field: 'created_at', order: 'DESC' },
      filter: { status: 'pending', q: 'a&b=c' },
    });
    expect(Orders.parse(Object.fromEntries(new URL(url).searchParams))).toEqual({
      range: [50, 74],
      sort: { field: 'created_at', order: 'DESC' },
      filter: { status: ['pending'], q: 'a&b=c' },
      sortGiven: true,
    });
  });

  it('applies the resource’s defaults when parameters are missing, and reads a lower-case order', () => {
    expect(Orders.parse({})).toEqual({ range: [0, 24], sort: { field: 'created_at', order: 'DESC' }, filter: {}, sortGiven: false });
    expect(Orders.parse({ sort: '["id","desc"]' }).sort).toEqual({ field: 'id', order: 'DESC' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['range not JSON', { range: '[0,24' }, 'range'],
    ['range empty', { range: '' }, 'range'],
    ['range one number', { range: '[0]' }, 'range'],
    ['range three numbers', { range: '[0,1,2]' }, 'range'],
    ['range strings', { range: '["0","24"]' }, 'range'],
    ['range negative', { range: '[-5,4]' }, 'range'],
    ['range reversed', { range: '[24,0]' }, 'range'],
    ['range too wide', { range: '[0,100000]' }, 'range'],
    ['range repeated', { range: ['[0,9]', '[10,19]'] }, 'range'],
    ['sort not JSON', { sort: 'id' }, 'sort'],
    ['sort bad order', { sort: '["id","UP"]' }, 'sort'],
    ['sort unknown field', { sort: '["secret","ASC"]' }, 'sort'],
    ['sort order the field does not take', { sort: '["newest","ASC"]' }, 'sort'],
    ['filter not JSON', { filter: '{status:1}' }, 'filter'],
    ['filter array', { filter: '[1,2]' }, 'filter'],
    ['filter null', { filter: 'null' }, 'filter'],
    ['filter unknown key', { filter: '{"colour":"red"}' }, 'filter'],
    ['filter status a number', { filter: '{"status":1}' }, 'filter.status'],
    ['filter status too many', { filter: JSON.stringify({ status: Array.from({ length: 51 }, (_, i) => `s${i}`) }) }, 'filter.status'],
    ['filter q too long', { filter: JSON.stringify({ q: 'x'.repeat(201) }) }, 'filter.q'],
    ['filter user_id not a uuid', { filter: '{"user_id":"nope"}' }, 'filter.user_id'],
    ['filter paid not a boolean', { filter: '{"paid":"maybe"}' }, 'filter.paid'],
    ['filter lab_id zero', { filter: '{"lab_id":[0]}' }, 'filter.lab_id'],
    ['filter from not a date', { filter: '{"from":"2026-02-30"}' }, 'filter.from'],
    ['filter to without a zone', { filter: '{"to":"2026-02-01T10:00"}' }, 'filter.to'],
  ])('refuses %s, naming the parameter', (_name, query, at) => {
    // Deeper paths (`range.0`, `filter.lab_id.0`) still name the parameter first.
    expect(refusal(query).at.split('.').slice(0, at.split('.').length).join('.')).toBe(at);
  });

  it('reads blank filters as absent, and normalises what it keeps', () => {
    const f = Orders.parse({
      filter: JSON.stringify({ status: ['a', 'a', 'b'], q: '  ', user_id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE', paid: 'false', lab_id: ['7', 7, 9], from: '2026-01-31', to: '2026-01-31' }),
    }).filter;
    expect(f).toEqual({
      status: ['a', 'b'],
      q: undefined,
      user_id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
      paid: false,
      lab_id: [7, 9],
      from: '2026-01-31T00:00:00.000Z',
      to: '2026-01-31T23:59:59.999Z',
    });
    expect(Orders.parse({ filter: '{"status":"","q":null}' }).filter).toEqual({ status: undefined, q: undefined });
  });

  it('takes a getMany’s ids on every list', () => {
    expect(Orders.parse({ filter: '{"id":["a",2,"a"]}' }).filter.id).toEqual(['a', '2']);
  });

  it('does not let a filter touch prototypes', () => {
    const r = Orders.safeParse({ filter: '{"__proto__":{"polluted":true}}' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (r.success) expect(Object.getPrototypeOf(r.data.filter)).toBe(Object.prototype);
  });
});

describe('record ids in paths', () => {
  it.each(['..', '.', '.hidden', 'a/b', '', 'x'.repeat(101), 'a b', '%2E%2E'])('refuses %j', (id) => {
    expect(RecordId.safeParse(id).success).toBe(false);
  });
  it.each(['0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c', '42', 'quest', 'lab_1.v2'])('takes %j', (id) => {
    expect(RecordId.safeParse(id).success).toBe(true);
  });
});

import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { LabAccount } from '../../contract';
import { audit } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { listHeaders, parseListParams, type ListParams } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { idsFilter, isUuid, sliceRange, stringFilter, stringListFilter } from './filters';

/** The record is the service's LabAccount as is: it already carries `id`. */
export type LabAccountRecord = LabAccount;

const IdParams = z.object({ id: z.string().min(1).max(100) });

/** Fields a lab-account list can be sorted by. The service answers one unsorted list, so the BFF sorts it. */
const SORTABLE = new Set(['id', 'lab', 'status', 'account_name']);

function sortAccounts(all: LabAccount[], sort: ListParams['sort']): LabAccount[] {
  if (!SORTABLE.has(sort.field)) {
    throw new BffError(400, `Lab accounts can be sorted by lab, status or account name only (not by ${sort.field})`);
  }
  // `id` is the service's own order (react-admin's default sort).
  if (sort.field === 'id') return sort.order === 'ASC' ? all : [...all].reverse();
  const key = sort.field as 'lab' | 'status' | 'account_name';
  const sign = sort.order === 'ASC' ? 1 : -1;
  return [...all].sort((a, b) => sign * String(a[key] ?? '').localeCompare(String(b[key] ?? '')));
}

/** One lab account of the team; null for an unknown, foreign or malformed id. */
export async function findLabAccount(client: ServiceClient, id: string): Promise<LabAccount | null> {
  if (!isUuid(id)) return null;
  try {
    const { data } = await client.listLabAccounts({ lab_account_id: id });
    return data.find((a) => a.id.toLowerCase() === id.toLowerCase()) ?? null;
  } catch (err) {
    if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return null;
    throw err;
  }
}

/**
 * react-admin resource `lab-accounts`. The service answers all of the team's accounts in one list
 * (`{data}`), so ranges are sliced here and the total is the count.
 */
export function labAccountsResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const canRead = requirePermission('catalogue:read', 'see lab accounts');

    app.get('/', { preHandler: canRead }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>);
      const ids = idsFilter(params.filter);
      if (ids) {
        const { data } = await client.listLabAccounts();
        const wanted = new Set(ids.map((i) => i.toLowerCase()));
        const items = data.filter((a) => wanted.has(a.id.toLowerCase()));
        await audit(app.bffDb, req, { action: 'read', resource: 'lab_accounts', recordIds: items.map((a) => a.id) });
        return reply.headers(listHeaders('lab-accounts', 0, { items, total: items.length, hasNextPage: false })).send(items);
      }

      const statuses = stringListFilter(params.filter, 'status');
      const labs = stringListFilter(params.filter, 'lab');
      const q = stringFilter(params.filter, 'q')?.toLowerCase();
      // Validate the sort before asking the service anything.
      sortAccounts([], params.sort);
      const { data } = await client.listLabAccounts(statuses?.length === 1 ? { status: statuses[0] } : {});
      let rows = data;
      if (statuses) rows = rows.filter((a) => statuses.includes(a.status));
      if (labs) rows = rows.filter((a) => labs.includes(a.lab));
      if (q) {
        rows = rows.filter((a) =>
          [a.account_name, a.provider_account_id, a.lab, a.org_id].some((v) => typeof v === 'string' && v.toLowerCase().includes(q)),
        );
      }
      const result = sliceRange(sortAccounts(rows, params.sort), params.range);
      await audit(app.bffDb, req, {
        action: 'list',
        resource: 'lab_accounts',
        recordIds: result.items.map((a) => a.id),
        detail: { range: params.range, sort: params.sort, status: statuses ?? null, lab: labs ?? null },
      });
      return reply.headers(listHeaders('lab-accounts', params.range[0], result)).send(result.items);
    });

    app.get('/:id', { preHandler: canRead }, async (req) => {
      const { id } = IdParams.parse(req.params);
      const account = await findLabAccount(client, id);
      if (!account) throw new BffError(404, 'Lab account not found');
      await audit(app.bffDb, req, { action: 'read', resource: 'lab_accounts', recordIds: [account.id] });
      return account;
    });
  };
}

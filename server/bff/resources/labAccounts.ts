import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LabAccount } from '../../contract';
import { ErrorBody, IdParams, isUuid, LabAccountRecord, LabAccountsList, type ListParams } from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { sendAll, sendList } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { sliceRange } from './sliceRange';

const TAGS = ['lab catalogue'];

/** The service answers one unsorted list, so the BFF sorts it. */
function sortAccounts(all: LabAccount[], sort: ListParams['sort']): LabAccount[] {
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
export function labAccountsResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canRead = requirePermission('catalogue:read', 'see lab accounts');

    app.get(
      '',
      {
        preValidation: canRead,
        schema: { operationId: 'listLabAccounts', tags: TAGS, querystring: LabAccountsList, response: { 200: z.array(LabAccountRecord), '4XX': ErrorBody } },
        config: { audit: { resource: 'lab_accounts', action: 'list' } },
      },
      async (req, reply) => {
        const { filter, sort, range } = req.query;
        if (filter.id) {
          const { data } = await client.listLabAccounts();
          const wanted = new Set(filter.id.map((i) => i.toLowerCase()));
          req.auditNote.action = 'read';
          return sendAll(reply, 'lab-accounts', data.filter((a) => wanted.has(a.id.toLowerCase())));
        }
        const { status: statuses, lab: labs } = filter;
        const q = filter.q?.toLowerCase();
        req.auditNote.detail = { range, sort, status: statuses ?? null, lab: labs ?? null };
        const { data } = await client.listLabAccounts(statuses?.length === 1 ? { status: statuses[0] } : {});
        let rows = data;
        if (statuses) rows = rows.filter((a) => statuses.includes(a.status));
        if (labs) rows = rows.filter((a) => labs.includes(a.lab));
        if (q) {
          rows = rows.filter((a) =>
            [a.account_name, a.provider_account_id, a.lab, a.org_id].some((v) => typeof v === 'string' && v.toLowerCase().includes(q)),
          );
        }
        return sendList(reply, 'lab-accounts', range[0], sliceRange(sortAccounts(rows, sort), range));
      },
    );

    app.get(
      '/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getLabAccount', tags: TAGS, params: IdParams, response: { 200: LabAccountRecord, '4XX': ErrorBody } },
        config: { audit: { resource: 'lab_accounts', action: 'read' } },
      },
      async (req) => {
        const account = await findLabAccount(client, req.params.id);
        if (!account) throw new BffError(404, 'Lab account not found');
        return account;
      },
    );
  };
}

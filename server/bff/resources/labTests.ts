/**
 * react-admin resources `lab-tests` and `labs`: the rest of the lab catalogue, which the order form
 * (lab tests of a lab) and the markers list (lab filter) read. The service answers each as one
 * unpaginated list, so ranges are sliced here. Catalogue data: not audited.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Lab, LabTest } from '../../contract';
import { ErrorBody, IdParams, isUuid, LabRecord, LabsList, LabTestRecord, LabTestsList, type ListParams } from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { sendAll, sendList } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { sliceRange } from './sliceRange';

const TAGS = ['lab catalogue'];

/** Sorts a fully-known list; `id` is the service's own order. The contract has checked the field. */
function sortBy<T>(rows: T[], sort: ListParams['sort'], fields: Record<string, (r: T) => string | number>): T[] {
  const key = fields[sort.field];
  if (sort.field === 'id' || !key) return sort.order === 'ASC' ? rows : [...rows].reverse();
  const sign = sort.order === 'ASC' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  });
}

const LAB_TEST_SORTS: Record<string, (t: LabTest) => string | number> = { name: (t) => t.name, price: (t) => t.price };
const LAB_SORTS: Record<string, (l: Lab) => string | number> = { name: (l) => l.name, slug: (l) => l.slug };

export function labTestsResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canRead = requirePermission('catalogue:read', 'see the lab catalogue');

    app.get(
      '',
      {
        preValidation: canRead,
        schema: { operationId: 'listLabTests', tags: TAGS, querystring: LabTestsList, response: { 200: z.array(LabTestRecord), '4XX': ErrorBody } },
      },
      async (req, reply) => {
        const { filter, sort, range } = req.query;
        if (filter.id) {
          const wanted = filter.id.filter(isUuid).map((i) => i.toLowerCase());
          return sendAll(reply, 'lab-tests', (await client.listLabTests({ generation_method: 'all' })).filter((t) => wanted.includes(t.id.toLowerCase())));
        }
        const all = await client.listLabTests({
          lab_slug: filter.lab_slug,
          collection_method: filter.collection_method,
          status: filter.status,
          name: filter.q,
        });
        return sendList(reply, 'lab-tests', range[0], sliceRange(sortBy(all, sort, LAB_TEST_SORTS), range));
      },
    );

    app.get(
      '/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getLabTest', tags: TAGS, params: IdParams, response: { 200: LabTestRecord, '4XX': ErrorBody } },
      },
      async (req) => {
        const { id } = req.params;
        if (!isUuid(id)) throw new BffError(404, 'Lab test not found');
        try {
          return await client.getLabTest(id);
        } catch (err) {
          if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) throw new BffError(404, 'Lab test not found');
          throw err;
        }
      },
    );
  };
}

export function labsResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canRead = requirePermission('catalogue:read', 'see the lab catalogue');

    app.get(
      '',
      {
        preValidation: canRead,
        schema: { operationId: 'listLabs', tags: TAGS, querystring: LabsList, response: { 200: z.array(LabRecord), '4XX': ErrorBody } },
      },
      async (req, reply) => {
        const { filter, sort, range } = req.query;
        const labs = await client.listLabs();
        if (filter.id) {
          const ids = filter.id;
          return sendAll(reply, 'labs', labs.filter((l) => ids.includes(String(l.id))));
        }
        const { slug, lab_id: labIds } = filter;
        const rows = labs.filter((l) => (!slug || l.slug === slug) && (!labIds || labIds.includes(l.id)));
        return sendList(reply, 'labs', range[0], sliceRange(sortBy(rows, sort, LAB_SORTS), range));
      },
    );

    app.get(
      '/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getLab', tags: TAGS, params: IdParams, response: { 200: LabRecord, '4XX': ErrorBody } },
      },
      async (req) => {
        const { id } = req.params;
        const lab = (await client.listLabs()).find((l) => String(l.id) === id || l.slug === id);
        if (!lab) throw new BffError(404, 'Lab not found');
        return lab;
      },
    );
  };
}

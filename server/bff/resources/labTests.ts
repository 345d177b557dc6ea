/**
 * react-admin resources `lab-tests` and `labs`: the rest of the lab catalogue, which the order form
 * (lab tests of a lab) and the markers list (lab filter) read. The service answers each as one
 * unpaginated list, so ranges are sliced here. Catalogue data: not audited.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { Lab, LabTest } from '../../contract';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { listHeaders, parseListParams, type ListParams } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { idsFilter, intListFilter, isUuid, sliceRange, stringFilter } from './filters';

const IdParams = z.object({ id: z.string().min(1).max(100) });

function sortBy<T>(rows: T[], sort: ListParams['sort'], fields: Record<string, (r: T) => string | number>, what: string): T[] {
  if (sort.field === 'id') return sort.order === 'ASC' ? rows : [...rows].reverse(); // the service's own order
  const key = fields[sort.field];
  if (!key) throw new BffError(400, `${what} can be sorted by ${Object.keys(fields).join(', ')} only (not by ${sort.field})`);
  const sign = sort.order === 'ASC' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  });
}

const LAB_TEST_SORTS: Record<string, (t: LabTest) => string | number> = { name: (t) => t.name, price: (t) => t.price };
const LAB_SORTS: Record<string, (l: Lab) => string | number> = { name: (l) => l.name, slug: (l) => l.slug };

export function labTestsResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const canRead = requirePermission('catalogue:read', 'see the lab catalogue');

    app.get('/', { preHandler: canRead }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>);
      const ids = idsFilter(params.filter);
      if (ids) {
        const wanted = ids.filter(isUuid).map((i) => i.toLowerCase());
        const items = (await client.listLabTests({ generation_method: 'all' })).filter((t) => wanted.includes(t.id.toLowerCase()));
        return reply.headers(listHeaders('lab-tests', 0, { items, total: items.length, hasNextPage: false })).send(items);
      }
      sortBy([], params.sort, LAB_TEST_SORTS, 'Lab tests');
      const all = await client.listLabTests({
        lab_slug: stringFilter(params.filter, 'lab_slug', 64),
        collection_method: stringFilter(params.filter, 'collection_method', 40),
        status: stringFilter(params.filter, 'status', 40),
        name: stringFilter(params.filter, 'q', 200),
      });
      const result = sliceRange(sortBy(all, params.sort, LAB_TEST_SORTS, 'Lab tests'), params.range);
      return reply.headers(listHeaders('lab-tests', params.range[0], result)).send(result.items);
    });

    app.get('/:id', { preHandler: canRead }, async (req) => {
      const { id } = IdParams.parse(req.params);
      if (!isUuid(id)) throw new BffError(404, 'Lab test not found');
      try {
        return await client.getLabTest(id);
      } catch (err) {
        if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) throw new BffError(404, 'Lab test not found');
        throw err;
      }
    });
  };
}

export function labsResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const canRead = requirePermission('catalogue:read', 'see the lab catalogue');

    const filtered = async (filter: Record<string, unknown>) => {
      const labs = await client.listLabs();
      const ids = idsFilter(filter);
      if (ids) return labs.filter((l) => ids.includes(String(l.id)));
      const slug = stringFilter(filter, 'slug', 64);
      const labIds = intListFilter(filter, 'lab_id');
      return labs.filter((l) => (!slug || l.slug === slug) && (!labIds || labIds.includes(l.id)));
    };

    app.get('/', { preHandler: canRead }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>);
      sortBy([], params.sort, LAB_SORTS, 'Labs');
      const result = sliceRange(sortBy(await filtered(params.filter), params.sort, LAB_SORTS, 'Labs'), params.range);
      return reply.headers(listHeaders('labs', params.range[0], result)).send(result.items);
    });

    app.get('/:id', { preHandler: canRead }, async (req) => {
      const { id } = IdParams.parse(req.params);
      const lab = (await client.listLabs()).find((l) => String(l.id) === id || l.slug === id);
      if (!lab) throw new BffError(404, 'Lab not found');
      return lab;
    });
  };
}

import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { CalendarDate } from '../../contract';
import { audit } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { listHeaders, parseListParams } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { dailyMindfulness } from './mindfulnessDaily';
import { UserDirectory } from './userDirectory';

const ChartQuery = z.object({ start_date: CalendarDate, end_date: CalendarDate });
const IdParams = z.object({ id: z.string().min(1).max(100) });

/** react-admin resource `users` (ra-data-simple-rest protocol) and the user's mindfulness chart data. */
export function usersResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const directory = new UserDirectory(client);
    const canRead = requirePermission('users:read', 'see patients');

    app.get('/', { preHandler: canRead }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>);
      const ids = params.filter.id;
      if (Array.isArray(ids)) {
        const users = await directory.getMany(ids.map(String));
        await audit(app.bffDb, req, { action: 'read', resource: 'users', recordIds: users.map((u) => u.id) });
        return reply.headers(listHeaders('users', 0, { items: users, total: users.length, hasNextPage: false })).send(users);
      }
      const result = await directory.list(params);
      await audit(app.bffDb, req, {
        action: 'list',
        resource: 'users',
        recordIds: result.items.map((u) => u.id),
        detail: { range: params.range, search: Boolean(params.filter.q), sort: params.sort },
      });
      return reply.headers(listHeaders('users', params.range[0], result)).send(result.items);
    });

    app.get('/:id', { preHandler: canRead }, async (req) => {
      const { id } = IdParams.parse(req.params);
      const [user] = await directory.getMany([id]);
      if (!user) throw new BffError(404, 'User not found');
      await audit(app.bffDb, req, { action: 'read', resource: 'users', recordIds: [user.id] });
      return user;
    });

    app.get(
      '/:id/mindfulness-minutes',
      { preHandler: requirePermission('timeseries:read', 'see patients’ health data') },
      async (req) => {
        const { id } = IdParams.parse(req.params);
        const q = ChartQuery.safeParse(req.query);
        if (!q.success) {
          const errors = Object.fromEntries(q.error.issues.map((i) => [String(i.path[0] ?? 'query'), i.message]));
          throw new BffError(422, 'Choose a valid date range', errors);
        }
        const [user] = await directory.getMany([id]);
        if (!user) throw new BffError(404, 'User not found');
        const daily = await dailyMindfulness(client, user, q.data.start_date, q.data.end_date);
        await audit(app.bffDb, req, {
          action: 'read',
          resource: 'mindfulness_minutes',
          recordIds: [user.user_id],
          detail: { start_date: q.data.start_date, end_date: q.data.end_date, upstream_pages: daily.upstream_pages },
        });
        return daily;
      },
    );
  };
}

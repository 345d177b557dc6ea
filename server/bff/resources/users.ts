import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, IdParams, MindfulnessMinutes, MindfulnessQuery, UserRecord, UsersList } from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { sendAll, sendList } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { dailyMindfulness } from './mindfulnessDaily';
import { UserDirectory } from './userDirectory';

const userNotFound = () => new BffError(404, 'User not found');

/** react-admin resource `users` (ra-data-simple-rest protocol) and the user's mindfulness chart data. */
export function usersResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const directory = new UserDirectory(client);
    const canRead = requirePermission('users:read', 'see patients');

    app.get(
      '',
      {
        preValidation: canRead,
        schema: { operationId: 'listUsers', tags: ['users'], querystring: UsersList, response: { 200: z.array(UserRecord), '4XX': ErrorBody } },
        config: { audit: { resource: 'users', action: 'list' } },
      },
      async (req, reply) => {
        const params = req.query;
        if (params.filter.id) {
          req.auditNote.action = 'read';
          return sendAll(reply, 'users', await directory.getMany(params.filter.id));
        }
        req.auditNote.detail = { range: params.range, search: Boolean(params.filter.q), sort: params.sort };
        return sendList(reply, 'users', params.range[0], await directory.list(params));
      },
    );

    app.get(
      '/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getUser', tags: ['users'], params: IdParams, response: { 200: UserRecord, '4XX': ErrorBody } },
        config: { audit: { resource: 'users', action: 'read' } },
      },
      async (req) => {
        const [user] = await directory.getMany([req.params.id]);
        if (!user) throw userNotFound();
        return user;
      },
    );

    app.get(
      '/:id/mindfulness-minutes',
      {
        preValidation: requirePermission('timeseries:read', 'see patients’ health data'),
        schema: {
          operationId: 'getUserMindfulnessMinutes',
          tags: ['users'],
          params: IdParams,
          querystring: MindfulnessQuery,
          response: { 200: MindfulnessMinutes, '4XX': ErrorBody },
        },
        config: { audit: { resource: 'mindfulness_minutes', action: 'read', records: (d: MindfulnessMinutes) => [d.user_id] } },
      },
      async (req) => {
        const { start_date, end_date } = req.query;
        req.auditNote.detail = { start_date, end_date };
        const [user] = await directory.getMany([req.params.id]);
        if (!user) throw userNotFound();
        const daily = await dailyMindfulness(client, user, start_date, end_date);
        req.auditNote.detail.upstream_pages = daily.upstream_pages;
        return daily;
      },
    );
  };
}

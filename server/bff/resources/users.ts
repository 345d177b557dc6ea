import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CreateUser, ErrorBody, IdParams, MindfulnessMinutes, MindfulnessQuery, UpdateUser, UserRecord, UsersList } from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { sendAll, sendList } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { dailyMindfulness } from './mindfulnessDaily';
import { UserDirectory } from './userDirectory';

const userNotFound = () => new BffError(404, 'User not found');

const EDITABLE = ['client_user_id', 'fallback_time_zone', 'fallback_birth_date', 'ingestion_start', 'ingestion_end'] as const;
type Editable = (typeof EDITABLE)[number];

/** What the record holds for each editable field, in the shape the write bodies use. */
function currentValue(user: UserRecord, field: Editable): string | null {
  if (field === 'fallback_time_zone') return user.fallback_time_zone?.id ?? null;
  if (field === 'fallback_birth_date') return user.fallback_birth_date?.value ?? null;
  return user[field] ?? null;
}

/**
 * The service refuses a client id the team already uses with a 400 (and the other user's id); the
 * form shows that on the field. The other user's id stays out of the answer: the message is enough.
 */
async function clientIdChecked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const detail = err instanceof UpstreamError && err.status === 400 ? err.detail : null;
    if (detail && typeof detail === 'object' && 'user_id' in detail) {
      const message = 'Another patient already has this client user id; choose another one, or open that patient';
      throw new BffError(409, message, { client_user_id: message }, 'duplicate_client_user_id');
    }
    throw err;
  }
}

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

    const canWrite = requirePermission('users:write', 'create or edit patients');

    app.post(
      '',
      {
        preValidation: canWrite,
        schema: { operationId: 'createUser', tags: ['users'], body: CreateUser, response: { 201: UserRecord, '4XX': ErrorBody } },
        config: { audit: { resource: 'users', action: 'create' } },
      },
      async (req, reply) => {
        const body = req.body;
        // Which fields were given, never their values (a birth date is health data).
        req.auditNote.detail = { fields: EDITABLE.filter((f) => body[f] !== undefined && body[f] !== null) };
        const { user_id } = await clientIdChecked(() => client.createUser(body));
        req.auditNote.recordIds = [user_id];
        const [user] = await directory.getMany([user_id]);
        if (!user) throw userNotFound();
        return reply.status(201).send(user);
      },
    );

    app.put(
      '/:id',
      {
        preValidation: canWrite,
        schema: { operationId: 'updateUser', tags: ['users'], params: IdParams, body: UpdateUser, response: { 200: UserRecord, '4XX': ErrorBody } },
        config: { audit: { resource: 'users', action: 'update' } },
      },
      async (req) => {
        const [current] = await directory.getMany([req.params.id]);
        if (!current) throw userNotFound();
        // react-admin sends the whole form back: only what changed goes upstream, so an unchanged
        // client id is not checked for duplicates against itself.
        const patch: { client_user_id?: string } & Partial<Record<Exclude<Editable, 'client_user_id'>, string | null>> = {};
        const { client_user_id: clientUserId } = req.body;
        if (clientUserId !== undefined && clientUserId !== current.client_user_id) patch.client_user_id = clientUserId;
        for (const field of EDITABLE) {
          if (field === 'client_user_id') continue;
          const given = req.body[field];
          if (given === undefined) continue;
          // An emptied input clears the value, as null does.
          const value = given === '' ? null : given;
          if (value !== currentValue(current, field)) patch[field] = value;
        }
        req.auditNote.detail = { fields: Object.keys(patch) };
        if (Object.keys(patch).length === 0) return current;
        await clientIdChecked(() => client.updateUser(current.user_id, patch));
        const [updated] = await directory.getMany([current.user_id]);
        if (!updated) throw userNotFound();
        return updated;
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

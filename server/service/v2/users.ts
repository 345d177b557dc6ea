import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ClientUserIdParams,
  CreateUserBody,
  CreateUserResponse,
  DeleteUserResponse,
  ErrorBody,
  errorResponses,
  ListUsersQuery,
  PaginatedUsers,
  PatchUserBody,
  User,
  UserIdParams,
  USERS_DEFAULT_LIMIT,
  USERS_MAX_LIMIT,
} from '../../contract';
import { createUser, deleteUser, getUser, listUsers, patchUser, resolveUser } from '../domain/users';
import { requestOrigin } from '../requestOrigin';

const tags = ['users'];
const security = [{ apiKey: [] }];

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v2/user/', {
    schema: {
      tags,
      security,
      operationId: 'listUsers', summary: 'List the team’s users',
      description: `Users in creation order. \`offset\` defaults to 0; \`limit\` defaults to ${USERS_DEFAULT_LIMIT} and may be at most ${USERS_MAX_LIMIT}. \`total\` is the team's total number of users. Also served at /v2/user.`,
      querystring: ListUsersQuery,
      response: { 200: PaginatedUsers, ...errorResponses },
    },
    handler: (req) => listUsers(app.db, req.teamId, req.query.offset, req.query.limit, requestOrigin(req)),
  });

  app.get('/v2/user/resolve/:client_user_id', {
    schema: {
      tags,
      security,
      operationId: 'resolveUser', summary: 'Find a user by the team’s own client_user_id',
      params: ClientUserIdParams,
      response: { 200: User, ...errorResponses },
    },
    handler: (req) => resolveUser(app.db, req.teamId, req.params.client_user_id, requestOrigin(req)),
  });

  app.get('/v2/user/:user_id', {
    schema: {
      tags,
      security,
      operationId: 'getUser', summary: 'Get a user',
      params: UserIdParams,
      response: { 200: User, ...errorResponses },
    },
    handler: (req) => getUser(app.db, req.teamId, req.params.user_id, requestOrigin(req)),
  });

  app.post('/v2/user', {
    schema: {
      tags,
      security,
      operationId: 'createUser', summary: 'Create a user',
      description:
        'client_user_id must not be an e-mail address or a phone number (422). A client_user_id the team already uses answers 400 with the existing user_id.',
      body: CreateUserBody,
      response: { 200: CreateUserResponse, 400: ErrorBody, ...errorResponses },
    },
    handler: (req) => createUser(app.db, req.teamId, req.body),
  });

  app.patch('/v2/user/:user_id', {
    schema: {
      tags,
      security,
      operationId: 'updateUser', summary: 'Update a user',
      description: 'Fields left out are unchanged; null clears a fallback value or an ingestion bound. Answers 204.',
      params: UserIdParams,
      body: PatchUserBody,
      response: { 204: z.null().describe('Updated'), 400: ErrorBody, ...errorResponses },
    },
    handler: async (req, reply) => {
      await patchUser(app.db, req.teamId, req.params.user_id, req.body);
      return reply.status(204).send(null);
    },
  });

  app.delete('/v2/user/:user_id', {
    schema: {
      tags,
      security,
      operationId: 'deleteUser', summary: 'Delete a user and all their data',
      params: UserIdParams,
      response: { 200: DeleteUserResponse, ...errorResponses },
    },
    handler: (req) => deleteUser(app.db, req.teamId, req.params.user_id),
  });
};

export default usersRoutes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, LabAccountsQuery, LabAccountsResponse } from '../../contract';
import { listLabAccounts } from '../domain/labs/accounts';

const tags = ['lab accounts'];
const security = [{ apiKey: [] }];

const labAccountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v3/lab_test/lab_account', {
    schema: {
      tags,
      security,
      operationId: 'listLabAccounts', summary: 'List the team’s lab accounts',
      description:
        'The lab accounts available to the team, oldest first, as `{data: [...]}`. `lab_account_id` narrows the list to that account; ' +
        'an unknown id or one of another team answers an empty list. `status` (active, pending, suspended; the enum may gain values) ' +
        'is compared case-insensitively, and a value no account has matches nothing rather than failing.',
      querystring: LabAccountsQuery,
      response: { 200: LabAccountsResponse, ...errorResponses },
    },
    handler: (req) => listLabAccounts(app.db, req.teamId, req.query),
  });
};

export default labAccountsRoutes;

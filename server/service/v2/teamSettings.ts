import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, TeamSettings, TeamSettingsPatch } from '../../contract';
import { getTeamSettings, updateTeamSettings } from '../domain/teamSettings';

const tags = ['team'];
const security = [{ apiKey: [] }];

/** Extension: the calling team's settings, so a console holding the team's key can show and change them. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v2/team/settings', {
    schema: { tags, security, operationId: 'getTeamSettings', summary: 'Extension: the team’s settings', response: { 200: TeamSettings, ...errorResponses } },
    handler: (req) => getTeamSettings(app.db, req.teamId),
  });
  app.patch('/v2/team/settings', {
    schema: {
      tags,
      security,
      operationId: 'updateTeamSettings', summary: 'Extension: change the team’s settings',
      description: '`partial_results_webhooks`: when true, each partial result set is announced with a `labtest.result.partial` event (see the webhooks guide); off by default.',
      body: TeamSettingsPatch,
      response: { 200: TeamSettings, ...errorResponses },
    },
    handler: (req) => updateTeamSettings(app.db, req.teamId, req.body),
  });
};

export default routes;

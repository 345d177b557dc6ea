import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateTeamBody, CreateTeamResponse, ErrorBody, RotateKeyBody, RotateKeyParams, RotateKeyResponse } from '../../contract';
import { createTeam, rotateApiKey } from '../domain/teams';
import { parseQueueStats } from '../domain/parsingJobs/queue';
import { ServiceMetrics, TeamSettings, TeamSettingsPatch } from '../../contract';
import { getTeamSettings, updateTeamSettings } from '../domain/teamSettings';

function sameSecret(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Operator API: only when SERVICE_ADMIN_TOKEN is set, and only with that token in `x-admin-token`. */
export function adminRoutes(adminToken: string | undefined): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', async (req, reply) => {
      if (!adminToken) return reply.status(404).send({ detail: 'The operator API is disabled (SERVICE_ADMIN_TOKEN is not set)' });
      const given = req.headers['x-admin-token'];
      if (typeof given !== 'string' || !sameSecret(given, adminToken)) {
        return reply.status(401).send({ detail: 'Missing or invalid x-admin-token' });
      }
    });
    const common = { tags: ['operator'], security: [{ adminToken: [] }] };

    app.post('/teams', {
      schema: {
        ...common,
        operationId: 'createTeam', summary: 'Create a team and its first API key',
        description: 'The key is shown once; the service keeps only its hash.',
        body: CreateTeamBody,
        response: { 201: CreateTeamResponse, 401: ErrorBody, 422: ErrorBody },
      },
      handler: async (req, reply) => {
        const team = await createTeam(app.db, req.body.name);
        return reply.status(201).send({ team_id: team.teamId, api_key: team.apiKey });
      },
    });

    app.get('/metrics', {
      schema: {
        ...common,
        operationId: 'getServiceMetrics', summary: 'Parse queue across teams, reader processes and memory',
        description: 'For operators: the depth of the parse queue and its oldest wait, what the reader pool has done (parsed, stopped for memory or time, crashed), and resident memory of the service and its readers.',
        response: { 200: ServiceMetrics, 401: ErrorBody },
      },
      handler: async () => {
        const q = await parseQueueStats(app.db);
        const readers = app.readers;
        const r = readers?.stats();
        return {
          parse_queue: { queued: q.queued, parsing: q.parsing, oldest_wait_seconds: q.oldestWaitSeconds, teams_waiting: q.teamsWaiting },
          readers: r
            ? {
                size: r.size,
                running: r.running,
                busy: r.busy,
                peak_reader_bytes: r.peakReaderBytes,
                parsed: r.parsed,
                stopped_for_memory: r.stoppedForMemory,
                stopped_for_time: r.stoppedForTime,
                crashed: r.crashed,
              }
            : null,
          memory: (({ rss, heapUsed, external }) => ({ rss_bytes: rss, heap_used_bytes: heapUsed, external_bytes: external, readers_rss_bytes: readers?.residentBytes() ?? 0 }))(
            process.memoryUsage(),
          ),
        };
      },
    });

    app.post('/teams/:team_id/api-keys', {
      schema: {
        ...common,
        operationId: 'rotateTeamApiKey', summary: 'Rotate a team’s API key',
        description: 'Issues a new key. With revoke_previous (default true) every earlier key stops working at once.',
        params: RotateKeyParams,
        body: RotateKeyBody.nullish(),
        response: { 201: RotateKeyResponse, 401: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      },
      handler: async (req, reply) => {
        const r = await rotateApiKey(app.db, req.params.team_id, req.body?.revoke_previous ?? true);
        // The announcement reaches this process too, a moment later: no request in between may pass on a revoked key.
        if (r.revoked > 0) app.apiKeys.clear();
        return reply.status(201).send({ team_id: r.teamId, api_key: r.apiKey, revoked_keys: r.revoked });
      },
    });

    app.get('/teams/:team_id/settings', {
      schema: { ...common, operationId: 'getTeamSettingsAsOperator', summary: 'A team’s settings', params: RotateKeyParams, response: { 200: TeamSettings, 401: ErrorBody, 404: ErrorBody, 422: ErrorBody } },
      handler: (req) => getTeamSettings(app.db, req.params.team_id),
    });

    app.patch('/teams/:team_id/settings', {
      schema: {
        ...common,
        operationId: 'updateTeamSettingsAsOperator', summary: 'Change a team’s settings',
        description: '`partial_results_webhooks` (off by default): announce each partial result set with `labtest.result.partial`.',
        params: RotateKeyParams,
        body: TeamSettingsPatch,
        response: { 200: TeamSettings, 401: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      },
      handler: (req) => updateTeamSettings(app.db, req.params.team_id, req.body),
    });
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponses,
  GroupedTimeseriesQuery,
  GroupedTimeseriesResponse,
  TIMESERIES_PAGE_SIZE,
  TimeseriesParams,
  TIMESERIES_IMPORT_BODY_LIMIT,
  TIMESERIES_IMPORT_MAX_POINTS,
  TimeseriesImportRequest,
  TimeseriesImportResponse,
} from '../../contract';
import { groupedMindfulnessMinutes } from '../domain/timeseries';
import { Invalid } from '../domain/errors';
import { importMindfulnessMinutes } from '../domain/timeseriesImport';

const description = `Mindfulness sessions grouped by provider slug, oldest first, at most ${TIMESERIES_PAGE_SIZE} points per page.

**Time rule.** A bound with \`Z\` or an offset is an instant. A bound without one (a date, or a date-time without an offset) is a wall-clock time compared with each session's local start: the session's own \`timezone_offset\` when its source gave one, otherwise the user's fallback time zone (UTC when the user has none). A date alone means 00:00:00 as \`start_date\` and 23:59:59 (the whole second) as \`end_date\`. A session is included when its start is within the bounds; sessions outside the user's ingestion bounds are never served.

**Paging.** Pass \`next_cursor\` from one answer to get the next page; null means there is no more data. Cursors are signed and bound to the user and to \`start_date\`, \`end_date\` and \`provider\`: a tampered cursor, or one from another query, is a 422. \`cursor\` is a deprecated alias of \`next_cursor\`, and \`next\` mirrors \`next_cursor\`. Pages never overlap or skip a point, even while new data arrives.`;

const importDescription = `**Labdesk extension** (not in the production interface): stores wearable mindfulness sessions of the team's users in bulk, as \`npm run import:timeseries\` does from a CSV or JSON file.

- The body is \`{"points": [...]}\` (\`application/json\`), or one point object per line (\`application/x-ndjson\`, JSON Lines), which a client can write as it reads its source.
- At most ${TIMESERIES_IMPORT_MAX_POINTS} points (and ${TIMESERIES_IMPORT_BODY_LIMIT / 1024 / 1024} MiB) per request; send a larger set in several requests, each answered before the next is sent.
- All or nothing: any invalid point is a 422 whose \`detail\` names it (\`loc\` \`["body", "points", <index>, <field>]\`) and nothing of the request is stored. A user that is unknown or another team's is a 404 naming the point.
- Idempotent: a session is identified by its user, provider, source type and start; a point already stored, or repeated in the request, is skipped (\`skipped\`), so a file imported twice is stored once.
- Imported points are served by \`GET /v2/timeseries/{user_id}/mindfulness_minutes/grouped\`; no webhook is sent for them.`;

const timeseriesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v2/timeseries/:user_id/mindfulness_minutes/grouped', {
    schema: {
      tags: ['timeseries'],
      security: [{ apiKey: [] }],
      operationId: 'getGroupedMindfulnessMinutes', summary: 'Mindfulness minutes, grouped by provider',
      description,
      params: TimeseriesParams,
      querystring: GroupedTimeseriesQuery,
      response: { 200: GroupedTimeseriesResponse, ...errorResponses },
    },
    handler: (req) => groupedMindfulnessMinutes(app.db, app.cursors, req.teamId, req.params.user_id, req.query),
  });

  // JSON Lines for the import (scoped to these routes): a client can write points as it reads them,
  // with no array to open and close; the body is read as `{points: [...]}` and checked the same way.
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string', bodyLimit: TIMESERIES_IMPORT_BODY_LIMIT }, (_req, body, done) => {
    const points: unknown[] = [];
    const lines = (body as string).split('\n');
    for (const [i, raw] of lines.entries()) {
      if (!raw.trim()) continue;
      try {
        points.push(JSON.parse(raw));
      } catch {
        done(new Invalid(['body', 'points', points.length], `line ${i + 1} of the body is not valid JSON`, 'value_error.jsonl'), undefined);
        return;
      }
    }
    done(null, { points });
  });

  app.post('/v2/timeseries/mindfulness_minutes/import', {
    bodyLimit: TIMESERIES_IMPORT_BODY_LIMIT,
    schema: {
      tags: ['timeseries'],
      security: [{ apiKey: [] }],
      operationId: 'importMindfulnessMinutes',
      summary: 'Bulk import of mindfulness sessions (Labdesk extension)',
      description: importDescription,
      body: TimeseriesImportRequest,
      response: { 200: TimeseriesImportResponse, ...errorResponses },
    },
    handler: (req) => importMindfulnessMinutes(app.db, req.teamId, req.body.points),
  });
};

export default timeseriesRoutes;

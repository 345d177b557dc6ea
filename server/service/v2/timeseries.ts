import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponses,
  GroupedTimeseriesQuery,
  GroupedTimeseriesResponse,
  TIMESERIES_PAGE_SIZE,
  TimeseriesParams,
} from '../../contract';
import { groupedMindfulnessMinutes } from '../domain/timeseries';

const description = `Mindfulness sessions grouped by provider slug, oldest first, at most ${TIMESERIES_PAGE_SIZE} points per page.

**Time rule.** A bound with \`Z\` or an offset is an instant. A bound without one (a date, or a date-time without an offset) is a wall-clock time compared with each session's local start: the session's own \`timezone_offset\` when its source gave one, otherwise the user's fallback time zone (UTC when the user has none). A date alone means 00:00:00 as \`start_date\` and 23:59:59 (the whole second) as \`end_date\`. A session is included when its start is within the bounds; sessions outside the user's ingestion bounds are never served.

**Paging.** Pass \`next_cursor\` from one answer to get the next page; null means there is no more data. Cursors are signed and bound to the user and to \`start_date\`, \`end_date\` and \`provider\`: a tampered cursor, or one from another query, is a 422. \`cursor\` is a deprecated alias of \`next_cursor\`, and \`next\` mirrors \`next_cursor\`. Pages never overlap or skip a point, even while new data arrives.`;

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
};

export default timeseriesRoutes;

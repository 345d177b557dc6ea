import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, Lab, MARKERS_DEFAULT_SIZE, MARKERS_MAX_SIZE, MarkersQuery, MarkersResponse } from '../../contract';
import { listLabs, listMarkers } from '../domain/labs/markers';

const tags = ['lab tests'];
const security = [{ apiKey: [] }];

const markersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v3/lab_tests/markers', {
    schema: {
      tags,
      security,
      operationId: 'listMarkers', summary: 'List markers (biomarkers and panels) of the lab catalogue',
      description:
        `Markers with their expected results and LOINC codes, ordered by lab, then name. Page-number pagination: \`page\` from 1, ` +
        `\`size\` defaults to ${MARKERS_DEFAULT_SIZE} and may be at most ${MARKERS_MAX_SIZE}; \`pages\` is ceil(total / size), ` +
        'and a page past the end is empty with the true `total`. Filters combine: `lab_slug` (quest, labcorp, bioreference, ' +
        'sonora_quest; an unknown slug gives an empty page), repeatable `lab_id`, `name` (case-insensitive substring of the name ' +
        "or the lab's test code), `a_la_carte_enabled`, and `lab_account_id`, which must be one of the team's lab accounts " +
        "(404 otherwise, like any id of another team) and limits the markers to that account's lab.",
      querystring: MarkersQuery,
      response: { 200: MarkersResponse, ...errorResponses },
    },
    handler: (req) => listMarkers(app.db, req.teamId, req.query),
  });

  app.get('/v3/lab_tests/labs', {
    schema: {
      tags,
      security,
      operationId: 'listLabs', summary: 'List the labs',
      description: 'Every lab of the catalogue with its address, collection methods and sample types, by id.',
      response: { 200: z.array(Lab), ...errorResponses },
    },
    handler: () => listLabs(app.db),
  });
};

export default markersRoutes;

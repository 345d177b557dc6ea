import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, LabTest, LabTestParams, LabTestsQuery, MarkersQuery, MarkersResponse } from '../../contract';
import { getLabTest, listLabTestMarkers, listLabTests } from '../domain/labs/labTests';

const tags = ['lab tests'];
const security = [{ apiKey: [] }];

const LabTestMarkersQuery = MarkersQuery.pick({ page: true, size: true });

const labTestsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v3/lab_tests', {
    schema: {
      tags,
      security,
      operationId: 'listLabTests', summary: 'List lab tests',
      description:
        'The lab tests the team can order, as a plain array: the shared catalogue plus the team’s own lab tests. ' +
        'Filters combine: `lab_slug`, `collection_method`, `status` (case-insensitive; an unknown value matches nothing), ' +
        '`name` (case-insensitive substring), `generation_method` (manual by default; auto or all). Ordered by `order_key` ' +
        'in `order_direction` when given, otherwise by lab and name.',
      querystring: LabTestsQuery,
      response: { 200: z.array(LabTest), ...errorResponses },
    },
    handler: (req) => listLabTests(app.db, req.teamId, req.query),
  });

  app.get('/v3/lab_tests/:lab_test_id', {
    schema: {
      tags,
      security,
      operationId: 'getLabTest', summary: 'Get a lab test',
      description: 'A shared lab test or one of the team’s own; another team’s lab test answers 404 like an unknown id.',
      params: LabTestParams,
      response: { 200: LabTest, ...errorResponses },
    },
    handler: (req) => getLabTest(app.db, req.teamId, req.params.lab_test_id),
  });

  app.get('/v3/lab_tests/:lab_test_id/markers', {
    schema: {
      tags,
      security,
      operationId: 'listLabTestMarkers', summary: 'List the markers of a lab test',
      description:
        'The lab test’s markers with their expected results, in the test’s own order, paginated like GET /v3/lab_tests/markers ' +
        '(`page` from 1, `size` default 50, at most 100). Another team’s lab test answers 404.',
      params: LabTestParams,
      querystring: LabTestMarkersQuery,
      response: { 200: MarkersResponse, ...errorResponses },
    },
    handler: (req) => listLabTestMarkers(app.db, req.teamId, req.params.lab_test_id, req.query.page, req.query.size),
  });
};

export default labTestsRoutes;

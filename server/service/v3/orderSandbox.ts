import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, OrderParams, PostOrderResponse, SimulateOrderQuery } from '../../contract';
import { INTERPRETATIONS, simulateOrder } from '../domain/orders/simulate';

const tags = ['orders'];
const security = [{ apiKey: [] }];

/** Optional body of the sandbox walk: what the results of a completed order say. */
export const SimulateOrderBody = z
  .object({
    interpretation: z.enum(INTERPRETATIONS).nullable().optional().describe('Set when the order completes; normal unless given'),
    result_types: z.array(z.string().max(60)).max(50).nullable().optional().describe('Accepted for compatibility; results are not simulated yet'),
    has_missing_results: z.boolean().nullable().optional().describe('Set when the order completes; false unless given'),
  })
  .nullish();

const routes: FastifyPluginAsyncZod = async (app) => {
  // The body is optional, and clients often send none while still saying application/json: in this
  // plugin's scope an empty JSON body reads as no body (the default parser answers an error).
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, undefined) : json(req, body as string, done),
  );

  app.post('/v3/order/:order_id/test', {
    schema: {
      tags,
      security,
      operationId: 'simulateOrderStatus', summary: 'Sandbox: drive an order to a status',
      description:
        'Moves the order to `final_status` (an OrderStatus of its collection method, e.g. `completed.testkit.completed` or ' +
        '`collecting_sample.testkit.problem_in_transit_lab`) through the plausible intermediate statuses, each with its event and ' +
        '`labtest.order.updated` webhook. With `delay` 0 every step is applied at once; otherwise one step every `delay` seconds, ' +
        'in the background. The order stays at the target: its own lifecycle is stopped. 422 for an unknown or unreachable ' +
        'status (the answer lists the valid ones) and for an order already completed, cancelled or failed.',
      params: OrderParams,
      querystring: SimulateOrderQuery,
      body: SimulateOrderBody,
      response: { 200: PostOrderResponse, ...errorResponses },
    },
    handler: (req) =>
      simulateOrder(app.db, req.teamId, req.params.order_id, {
        finalStatus: req.query.final_status,
        delaySeconds: req.query.delay,
        result: { interpretation: req.body?.interpretation, has_missing_results: req.body?.has_missing_results },
      }),
  });
};

export default routes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, OrderParams, PostOrderResponse, SimulateOrderBody, SimulateOrderQuery } from '../../contract';
import { simulateOrder } from '../domain/orders/simulate';

const tags = ['orders'];
const security = [{ apiKey: [] }];

const routes: FastifyPluginAsyncZod = async (app) => {
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
        result: { interpretation: req.body?.interpretation, result_types: req.body?.result_types, has_missing_results: req.body?.has_missing_results },
      }),
  });
};

export default routes;

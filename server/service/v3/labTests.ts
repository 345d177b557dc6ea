import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of /v3 (labTests); filled in by the lab-ordering work.
const routes: FastifyPluginAsyncZod = async () => {};

export default routes;

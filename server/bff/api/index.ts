/**
 * The BFF's contract: what the dashboard may send and what it gets back, resource by resource.
 * The BFF registers these schemas on its routes (they validate input and build /api/openapi.json);
 * the dashboard imports the same types and constants. Plain zod and the service's contract only:
 * nothing here may import server code.
 */
export * from './appointments';
export * from './audit';
export * from './auth';
export * from './catalogue';
export * from './errors';
export * from './icdCodes';
export * from './list';
export * from './orders';
export * from './orderTriage';
export * from './parserJobs';
export * from './roles';
export * from './staff';
export * from './users';
export * from './webhooks';
export * from './results';
export * from './walkIn';
export * from './overview';

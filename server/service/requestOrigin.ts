import type { FastifyRequest } from 'fastify';

/** The origin the caller used to reach the service, for absolute URLs (provider logos) in answers. */
export function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

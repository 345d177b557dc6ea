import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * What both processes may log about a request or an error: nothing that can hold health data.
 *
 * - A request is its method, its route *pattern* (`/v2/user/resolve/:client_user_id`, never the
 *   path it was called with), its id and status: query strings and path values carry client user
 *   ids, patient names and search text.
 * - An error is its type, its code (PostgreSQL's SQLSTATE) and a message with every quoted value
 *   and every bound parameter taken out: a driver error says `invalid input syntax for type uuid:
 *   "<what was sent>"`, and drizzle's query errors append the query's parameters (a patient's name,
 *   date of birth, address). Its stack keeps the frames, without the message.
 */

type LoggedRequest = Pick<FastifyRequest, 'method' | 'id'> & { routeOptions?: { url?: string } };

export function safeRequest(req: LoggedRequest) {
  return { method: req.method, route: req.routeOptions?.url ?? '(no route)', id: req.id };
}

export function safeResponse(res: Pick<FastifyReply, 'statusCode'>) {
  return { statusCode: res.statusCode };
}

/** A message with quoted values, parameters and SQL text taken out. */
export function safeMessage(message: string): string {
  return message
    .replace(/\n?params:[\s\S]*$/i, '') // drizzle: "Failed query: …\nparams: a,b,c"
    .replace(/^Failed query:[\s\S]*$/i, 'a database query failed')
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '"…"')
    .replace(/\((?:[^()]|\([^()]*\))*\)=\((?:[^()]|\([^()]*\))*\)/g, '(…)=(…)') // "Key (email)=(x@y)"
    .slice(0, 300);
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  stack?: unknown;
  cause?: unknown;
  statusCode?: unknown;
}

/** An error as it may be logged: type, code, a safe message, and the stack's frames only. */
export function safeError(err: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!err || typeof err !== 'object') return { type: typeof err, message: safeMessage(String(err)), stack: '' };
  const e = err as ErrorLike;
  const cause = (e.cause && typeof e.cause === 'object' ? e.cause : undefined) as ErrorLike | undefined;
  const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 12).join('\n') : undefined;
  return {
    type: typeof e.name === 'string' ? e.name : 'Error',
    ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: e.code } : {}),
    ...(cause && (typeof cause.code === 'string' || typeof cause.code === 'number') ? { causeCode: cause.code } : {}),
    ...(typeof e.statusCode === 'number' ? { statusCode: e.statusCode } : {}),
    message: safeMessage(typeof e.message === 'string' ? e.message : ''),
    ...(cause && typeof cause.message === 'string' ? { cause: safeMessage(cause.message) } : {}),
    stack: frames ?? '',
  };
}

export const safeSerializers = { req: safeRequest, res: safeResponse, err: safeError };

/** A process's logger options (a level, a redaction list, a stream for tests) with the safe serializers. `false` stays `false`. */
export function withSafeSerializers(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  // A caller's own serializers win (a test logging headers to check their redaction); no process passes any.
  return { ...base, serializers: { ...safeSerializers, ...(typeof base === 'object' && 'serializers' in base ? base.serializers : {}) } };
}

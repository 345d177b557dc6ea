import type { ValidationIssue } from '../../contract';

/** Domain errors carry their HTTP meaning; the one error handler turns them into the wire shape. */
export class ServiceError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | ValidationIssue[] | Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : `service error ${statusCode}`);
  }
}

export class NotFound extends ServiceError {
  constructor(what: string) {
    super(404, `${what} not found`);
  }
}

/** 422 for input that passed the schema but breaks a rule, pointed at the offending field. */
export class Invalid extends ServiceError {
  constructor(loc: (string | number)[], msg: string, type = 'value_error') {
    super(422, [{ loc, msg, type }]);
  }
}

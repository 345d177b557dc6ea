import { HttpError } from 'react-admin';

/** The BFF's `{message, errors, code}` from a failed call, in a shape the triage dialogs use. */
export function problemOf(error: unknown): { message: string; errors?: Record<string, string>; code?: string } {
  if (error instanceof HttpError) {
    const body = (error.body ?? {}) as { errors?: Record<string, string>; code?: string };
    return { message: error.message, errors: body.errors, code: body.code };
  }
  return { message: error instanceof Error ? error.message : 'the server did not say why' };
}

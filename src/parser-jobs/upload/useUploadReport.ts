/**
 * The upload form's submit: sends the report through the dataProvider (`create('parser-jobs')`,
 * progress callbacks in `meta`), then opens the job's page (where the parsing progress shows).
 * Refusals land on the fields, as react-admin shows server-side errors: 413 and 415 on the file,
 * 422 on whichever field the BFF names.
 */
import { useCallback, useState } from 'react';
import { HttpError, useCreate, useNotify, useRedirect } from 'react-admin';
import type { ParserJobRecord } from '../types';
import type { CreateMeta } from '../../providers/types';

export type UploadState = { phase: 'idle' } | { phase: 'sending'; fraction: number | null; fileName: string } | { phase: 'processing'; fileName: string };

export interface UploadFormValues {
  user_id?: string | null;
  file?: File | null;
  needs_human_review?: boolean;
}

const TOO_LARGE = 'The server refused this file as larger than 10 MB.';
const UNSUPPORTED = 'The server could not read this file as a PDF, JPEG or PNG. Export or scan the report to one of those and try again.';

/** Field errors for the form, from the BFF's refusal. */
export function uploadErrors(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof HttpError)) return undefined;
  const body = error.body as { errors?: Record<string, string>; message?: string } | undefined;
  if (error.status === 413) return { file: body?.message ? `${TOO_LARGE} ${body.message}` : TOO_LARGE };
  if (error.status === 415) return { file: body?.message ? `${UNSUPPORTED} (${body.message})` : UNSUPPORTED };
  const errors = body?.errors;
  return errors && Object.keys(errors).length ? errors : undefined;
}

export function useUploadReport() {
  const notify = useNotify();
  const redirect = useRedirect();
  // The record sent is the upload form (a File), not a job: only the answer is a ParserJobRecord.
  const [create] = useCreate<UploadFormValues, Error, ParserJobRecord>();
  const [state, setState] = useState<UploadState>({ phase: 'idle' });

  const submit = useCallback(
    async (values: Record<string, unknown>) => {
      const { user_id, file, needs_human_review } = values as UploadFormValues;
      if (!(file instanceof File) || !user_id) return undefined; // the inputs' own checks said why
      setState({ phase: 'sending', fraction: 0, fileName: file.name });
      const meta: CreateMeta = {
        onProgress: (fraction) => setState({ phase: 'sending', fraction, fileName: file.name }),
        onSent: () => setState({ phase: 'processing', fileName: file.name }),
      };
      try {
        // Pessimistic with returnPromise: resolves to the created job, or throws the BFF's refusal.
        const job = (await create(
          'parser-jobs',
          { data: { user_id, file, needs_human_review: needs_human_review === true }, meta },
          { mutationMode: 'pessimistic', returnPromise: true },
        )) as ParserJobRecord;
        setState({ phase: 'idle' });
        notify('Report uploaded. It is being read now.', { type: 'success' });
        redirect('show', 'parser-jobs', job.id);
        return undefined;
      } catch (error) {
        setState({ phase: 'idle' });
        const errors = uploadErrors(error);
        const message = error instanceof Error && error.message ? error.message : 'The report could not be uploaded';
        notify(errors ? `The report was not uploaded. ${message}` : message, { type: 'error' });
        return errors;
      }
    },
    [create, notify, redirect],
  );
  return { submit, state };
}

/**
 * Sends a lab report to the BFF (`POST /api/parser-jobs`, multipart) with XMLHttpRequest rather
 * than fetch: fetch cannot report upload progress, and a 10 MB scan on a slow line takes long
 * enough that people need to see it move. Same rules as httpClient: the session cookie goes along
 * (same origin), the CSRF token in `x-csrf-token`, errors as react-admin's HttpError with the
 * BFF's `{message, errors, code}` in `body`.
 */
import { HttpError } from 'react-admin';
import { CSRF_HEADER } from '../../../server/bff/api/auth';
import { toLabdeskError } from '../../providers/httpClient';
import { getCsrfToken } from '../../providers/session';
import type { ParserJobRecord } from '../types';

export interface UploadInput {
  file: File;
  userId: string;
  needsHumanReview: boolean;
}

export interface UploadOptions {
  /** 0..1 of the bytes sent; null when the browser cannot tell the total. */
  onProgress?: (fraction: number | null) => void;
  /** Called once every byte is sent and the server is reading the answer. */
  onSent?: () => void;
  signal?: AbortSignal;
  /** The request object; tests pass a stand-in. Default: the browser's XMLHttpRequest. */
  createRequest?: () => XMLHttpRequest;
}

export const UPLOAD_URL = '/api/parser-jobs';
export const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function uploadParserJob(input: UploadInput, options: UploadOptions = {}): Promise<ParserJobRecord> {
  const form = new FormData();
  form.append('user_id', input.userId);
  form.append('needs_human_review', input.needsHumanReview ? 'true' : 'false');
  // The file goes last: a streaming server can check the fields before the bytes arrive.
  form.append('file', input.file, input.file.name);

  return new Promise((resolve, reject) => {
    const xhr = options.createRequest?.() ?? new XMLHttpRequest();
    xhr.open('POST', UPLOAD_URL);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getCsrfToken();
    if (token) xhr.setRequestHeader(CSRF_HEADER, token);

    xhr.upload.onprogress = (event) => options.onProgress?.(event.lengthComputable && event.total > 0 ? event.loaded / event.total : null);
    xhr.upload.onload = () => {
      options.onProgress?.(1);
      options.onSent?.();
    };
    xhr.onload = () => {
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object') {
        resolve(body as ParserJobRecord);
        return;
      }
      const message = body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : '';
      reject(toLabdeskError(new HttpError(message || `Upload failed (HTTP ${xhr.status})`, xhr.status, body)));
    };
    xhr.onerror = () => reject(new Error(UNREACHABLE));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

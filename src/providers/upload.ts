/**
 * Sends a lab report to the BFF (`POST /api/parser-jobs`, multipart) with XMLHttpRequest rather
 * than fetch: fetch cannot report upload progress, and a 10 MB scan on a slow line takes long
 * enough that people need to see it move. Same rules as httpClient: the session cookie goes along
 * (same origin), the CSRF token in its header, errors as react-admin's HttpError with the BFF's
 * `{message, errors, code}` in `body`. The dataProvider's `create('parser-jobs')` calls it.
 */
import { HttpError } from 'react-admin';
import { CSRF_HEADER } from '../../server/bff/api/constants';
import type { ParserJobRecord } from '../../server/bff/api';
import { toLabdeskError } from './httpClient';
import { getCsrfToken } from './session';
import type { ParserJobUpload, UploadProgress } from './types';

export const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function uploadParserJob(url: string, input: ParserJobUpload, progress: UploadProgress = {}): Promise<ParserJobRecord> {
  const form = new FormData();
  form.append('user_id', input.userId);
  form.append('needs_human_review', input.needsHumanReview ? 'true' : 'false');
  // The file goes last: a streaming server can check the fields before the bytes arrive.
  form.append('file', input.file, input.file.name);

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getCsrfToken();
    if (token) xhr.setRequestHeader(CSRF_HEADER, token);

    xhr.upload.onprogress = (event) => progress.onProgress?.(event.lengthComputable && event.total > 0 ? event.loaded / event.total : null);
    xhr.upload.onload = () => {
      progress.onProgress?.(1);
      progress.onSent?.();
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
    progress.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

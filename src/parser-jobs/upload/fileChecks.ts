/**
 * What the upload form checks before sending. The size limit is the BFF's own (10 MB; more is a
 * 413), so a too-large scan is refused here with words instead of after minutes of uploading.
 * The type check is only a hint from the name and the browser's guess: the service decides by
 * the content (a 415 says so), so a file the browser cannot place is let through.
 */
import { MAX_FILE_BYTES } from '../types';

export const ACCEPTED_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export const ACCEPTED_EXTENSIONS = ['.pdf', '.jpg', '.jpeg', '.png'] as const;
/** For `<input accept>`: what the file picker offers first. */
export const ACCEPT_ATTRIBUTE = [...ACCEPTED_TYPES, ...ACCEPTED_EXTENSIONS].join(',');

const MB = 1024 * 1024;

/** "9.5 MB", "320 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
};

/** Why this file should not be sent, or undefined. */
export function fileProblem(file: unknown): string | undefined {
  if (!(file instanceof File)) return 'Choose the report file (PDF, JPEG or PNG)';
  if (file.size === 0) return 'This file is empty. Choose the report file again.';
  if (file.size > MAX_FILE_BYTES) {
    // Two decimals: "10 MB" would read as allowed for a file a few bytes over.
    return `This file is ${(file.size / MB).toFixed(2)} MB, over the 10 MB limit. Scan at a lower resolution, or upload the pages as separate files.`;
  }
  const extension = extensionOf(file.name);
  const knownType = file.type !== '' && file.type !== 'application/octet-stream';
  const typeOk = (ACCEPTED_TYPES as readonly string[]).includes(file.type);
  const extensionOk = (ACCEPTED_EXTENSIONS as readonly string[]).includes(extension);
  // Refuse only when both the name and the browser say it is something else.
  if (!typeOk && !extensionOk && (knownType || extension !== '')) {
    return `This looks like ${extension ? `a ${extension} file` : file.type}. Choose a PDF, JPEG or PNG.`;
  }
  return undefined;
}

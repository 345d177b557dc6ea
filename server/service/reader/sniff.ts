import { fileTypeFromBuffer } from 'file-type';
import type { SniffResult } from './types';

/** The upload limit of the interface ("up to 10 MB"); the route enforces it too, this is the backstop. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * What an upload really is, judged by its bytes (file-type reads the magic numbers), never by its
 * name or declared content type: a PDF renamed `.png` is a PDF, a text file called `.pdf` is
 * rejected. Only PDF, JPEG and PNG are accepted (the interface's list).
 */
export async function sniffUpload(bytes: Uint8Array): Promise<SniffResult> {
  if (bytes.byteLength === 0) return { rejected: 'the file is empty' };
  if (bytes.byteLength > MAX_UPLOAD_BYTES) return { rejected: 'the file is larger than 10 MB' };
  let detected: Awaited<ReturnType<typeof fileTypeFromBuffer>>;
  try {
    detected = await fileTypeFromBuffer(bytes);
  } catch {
    return { rejected: 'the file could not be read' };
  }
  if (!detected) {
    // file-type insists on `%PDF-` at offset 0; the PDF spec lets a header start within the first
    // 1024 bytes (some scanners prepend junk), and pdfjs accepts that, so do we.
    if (hasLatePdfHeader(bytes)) return 'pdf';
    return { rejected: 'the file is not a PDF, JPEG or PNG (its content type could not be recognised)' };
  }
  switch (detected.mime) {
    case 'application/pdf':
      return 'pdf';
    case 'image/jpeg':
      return 'jpeg';
    case 'image/png':
      return 'png';
    default:
      return { rejected: `the file is ${detected.mime}, not a PDF, JPEG or PNG` };
  }
}

function hasLatePdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

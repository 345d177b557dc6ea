/** Builds multipart/form-data bodies by hand, so tests control every byte (sizes at the limit, odd parts). */
import { randomBytes } from 'node:crypto';
import { simpleReportPdf } from '../../server/service/seed/labReportPdf';

export interface FilePart {
  name?: string;
  filename?: string;
  contentType?: string;
  bytes: Buffer | Uint8Array;
}

export function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const boundary = `----labdesk${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name ?? 'file'}"; filename="${f.filename ?? 'blob'}"\r\n` +
          `Content-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(f.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A one-page text PDF with a small Labcorp-like result table (what a clean report looks like). */
export function smallReportPdf(rows: [string, string, string, string][] = DEFAULT_ROWS): Promise<Buffer> {
  return simpleReportPdf({
    lab: 'Labcorp',
    patient: { last: 'Doe', first: 'Jane', dob: '04/02/1980' },
    specimen: '123-456-7890-0',
    collected: '11/02/2026',
    reported: '11/04/2026',
    panels: [{ name: 'Comp. Metabolic Panel (14)', rows }],
  });
}

const DEFAULT_ROWS: [string, string, string, string][] = [
  ['Glucose', '92', 'mg/dL', '70-99'],
  ['Sodium', '141', 'mmol/L', '134-144'],
  ['Potassium', '5.6 H', 'mmol/L', '3.5-5.2'],
];

/** Builds multipart/form-data bodies by hand, so tests control every byte (sizes at the limit, odd parts). */
import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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
export async function smallReportPdf(rows: [string, string, string, string][] = DEFAULT_ROWS): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  let y = 740;
  const line = (cells: [string, number][], f = font, size = 10) => {
    for (const [text, x] of cells) page.drawText(text, { x, y, size, font: f });
    y -= 16;
  };
  line([['Labcorp', 40]], bold, 14);
  line([['Patient: DOE, JANE', 40], ['DOB: 04/02/1980', 320]]);
  line([['Specimen ID: 123-456-7890-0', 40], ['Date Collected: 11/02/2026', 320]]);
  line([['Date Reported: 11/04/2026', 40]]);
  y -= 10;
  line([['Test', 40], ['Current Result and Flag', 220], ['Units', 370], ['Reference Interval', 450]], bold);
  line([['Comp. Metabolic Panel (14)', 40]], bold);
  for (const [name, value, units, range] of rows) line([[name, 40], [value, 220], [units, 370], [range, 450]]);
  return Buffer.from(await doc.save());
}

const DEFAULT_ROWS: [string, string, string, string][] = [
  ['Glucose', '92', 'mg/dL', '70-99'],
  ['Sodium', '141', 'mmol/L', '134-144'],
  ['Potassium', '5.6 H', 'mmol/L', '3.5-5.2'],
];

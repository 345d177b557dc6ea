import type { FastifyReply } from 'fastify';
import { BffError } from '../errors';
import type { BinaryAnswer } from '../upstream/client';

/**
 * Streams a PDF from the service to the browser, never held in memory and never cached. Anything but
 * a PDF is refused (502): the dashboard's origin must not serve other upstream content.
 */
export function sendPdf(reply: FastifyReply, pdf: BinaryAnswer, opts: { what: string; disposition: 'inline' | 'attachment'; fileName: string }) {
  const type = pdf.contentType.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/pdf' && type !== 'application/octet-stream') {
    pdf.body.destroy();
    throw new BffError(502, `The service answered ${opts.what} with something other than a PDF`);
  }
  reply
    .type('application/pdf')
    .header('content-disposition', `${opts.disposition}; filename="${opts.fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  if (pdf.contentLength !== null) reply.header('content-length', String(pdf.contentLength));
  return reply.send(pdf.body);
}

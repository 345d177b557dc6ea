/**
 * pdf.js, set up for the browser. Only PdfViewer imports this, and PdfViewer is loaded lazily, so
 * pdf.js (about a megabyte) stays out of the main bundle until someone opens a PDF report.
 * The worker comes from our own origin (Vite emits it as an asset): nothing is fetched from
 * outside hosts. Eval stays off: fonts are rendered without compiling code from the document.
 */
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

export function openPdf(url: string) {
  return getDocument({ url, isEvalSupported: false, enableXfa: false });
}

export type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';

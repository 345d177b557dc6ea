/**
 * A PDF report rendered in the page with pdf.js, one page at a time into a canvas, with page
 * navigation and zoom (100% = the page as wide as the pane). Default export: DocumentViewer loads
 * this file lazily (see pdfjs.ts for why).
 */
import { useEffect, useRef, useState } from 'react';
import { Box, IconButton, Stack, Typography } from '@mui/material';
import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { openPdf, type PDFDocumentProxy, type RenderTask } from './pdfjs';
import { ViewerFallback, ViewerLoading } from './ViewerFallback';
import { ZoomControls } from './ZoomControls';

function usePdf(url: string) {
  const [state, setState] = useState<{ doc: PDFDocumentProxy | null; failed: boolean }>({ doc: null, failed: false });
  useEffect(() => {
    const task = openPdf(url);
    let live = true;
    task.promise.then(
      (doc) => live && setState({ doc, failed: false }),
      () => live && setState({ doc: null, failed: true }),
    );
    return () => {
      live = false;
      void task.destroy();
    };
  }, [url]);
  return state;
}

/** Renders one page into the canvas at the pane's width × zoom, sharp on high-density screens. */
function usePageCanvas(doc: PDFDocumentProxy | null, pageNumber: number, zoom: number, pane: React.RefObject<HTMLDivElement | null>) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  // The pane's width changes as the page around it lays out (the results column arrives later):
  // draw again at the new width, or the page would stay cropped at the width of the first layout.
  const [paneWidth, setPaneWidth] = useState(0);
  useEffect(() => {
    const el = pane.current; // mounted once the document has loaded, hence `doc` below
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setPaneWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [pane, doc]);
  useEffect(() => {
    if (!doc || !canvas.current) return;
    let task: RenderTask | null = null;
    let live = true;
    void doc.getPage(pageNumber).then((page) => {
      if (!live || !canvas.current) return;
      const natural = page.getViewport({ scale: 1 });
      const width = (paneWidth || pane.current?.clientWidth || natural.width) - 2;
      const cssScale = (width / natural.width) * zoom;
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: cssScale * ratio });
      const el = canvas.current;
      el.width = Math.floor(viewport.width);
      el.height = Math.floor(viewport.height);
      el.style.width = `${Math.floor(viewport.width / ratio)}px`;
      el.style.height = `${Math.floor(viewport.height / ratio)}px`;
      task = page.render({ canvas: el, viewport });
      task.promise.catch((error: unknown) => {
        if (live && !(error instanceof Error && error.name === 'RenderingCancelledException')) setFailed(true);
      });
    }, () => live && setFailed(true));
    return () => {
      live = false;
      task?.cancel();
    };
  }, [doc, pageNumber, zoom, pane, paneWidth]);
  return { canvas, failed };
}

export default function PdfViewer({ url, name }: { url: string; name: string }) {
  const { doc, failed } = usePdf(url);
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState(1);
  const pane = useRef<HTMLDivElement>(null);
  const page = usePageCanvas(doc, pageNumber, zoom, pane);

  if (failed || page.failed) return <ViewerFallback url={url} message="The PDF could not be shown here." />;
  if (!doc) return <ViewerLoading what="the PDF" />;
  const pages = doc.numPages;
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between" flexWrap="wrap">
        <Stack direction="row" spacing={0.5} alignItems="center" role="group" aria-label="Pages">
          <IconButton size="small" aria-label="Previous page" disabled={pageNumber <= 1} onClick={() => setPageNumber((n) => n - 1)}>
            <NavigateBeforeIcon fontSize="small" />
          </IconButton>
          <Typography variant="caption" aria-live="polite">{`Page ${pageNumber} of ${pages}`}</Typography>
          <IconButton size="small" aria-label="Next page" disabled={pageNumber >= pages} onClick={() => setPageNumber((n) => n + 1)}>
            <NavigateNextIcon fontSize="small" />
          </IconButton>
        </Stack>
        <ZoomControls zoom={zoom} onZoom={setZoom} />
      </Stack>
      <Box ref={pane} sx={{ overflow: 'auto', maxHeight: '75vh', border: '1px solid', borderColor: 'divider', borderRadius: 1 }}>
        <canvas ref={page.canvas} role="img" aria-label={`Page ${pageNumber} of the uploaded report, ${name}`} style={{ display: 'block' }} />
      </Box>
    </Stack>
  );
}

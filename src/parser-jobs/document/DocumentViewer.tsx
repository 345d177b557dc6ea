/**
 * The original report, beside the values read off it: scans as images, PDFs through pdf.js
 * (loaded only when a PDF is opened), anything else as a link.
 */
import { lazy, Suspense } from 'react';
import { Button, Card, CardContent, CardHeader } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import type { ParserJobRecord } from '../types';
import { documentKind, parserJobFileUrl } from './documentFile';
import { ImageViewer } from './ImageViewer';
import { ViewerErrorBoundary } from './ViewerErrorBoundary';
import { ViewerFallback, ViewerLoading } from './ViewerFallback';

const PdfViewer = lazy(() => import('./PdfViewer'));

export const DocumentViewer = ({ job }: { job: ParserJobRecord }) => {
  const url = parserJobFileUrl(job.id);
  const kind = documentKind(job);
  const name = job.file?.name ?? 'report';
  return (
    <Card component="section" aria-label="Original document" sx={{ position: { lg: 'sticky' }, top: { lg: 72 } }}>
      <CardHeader
        title="Original document"
        subheader={name}
        action={
          <Button component="a" href={url} target="_blank" rel="noopener" size="small" endIcon={<OpenInNewIcon />} sx={{ mt: 1 }}>
            Open in a new tab
          </Button>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {kind === 'image' && <ImageViewer url={url} name={name} />}
        {kind === 'pdf' && (
          <ViewerErrorBoundary fallback={<ViewerFallback url={url} message="The PDF viewer could not be loaded." />}>
            <Suspense fallback={<ViewerLoading what="the PDF viewer" />}>
              <PdfViewer url={url} name={name} />
            </Suspense>
          </ViewerErrorBoundary>
        )}
        {kind === 'other' && <ViewerFallback url={url} message="This kind of file cannot be shown here." />}
      </CardContent>
    </Card>
  );
};

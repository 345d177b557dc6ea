/** Where a job's uploaded file is served (same origin: the session cookie goes along), and what kind it is. */
import { API_URL } from '../../providers/dataProvider';
import type { ParserJobRecord } from '../types';

export const parserJobFileUrl = (jobId: string) => `${API_URL}/parser-jobs/${encodeURIComponent(jobId)}/file`;

export type DocumentKind = 'pdf' | 'image' | 'other';

/** By the content type the service sniffed; by the name for older answers without `file`. */
export function documentKind(job: Pick<ParserJobRecord, 'file'>): DocumentKind {
  const type = job.file?.content_type ?? '';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'image/png' || type === 'image/jpeg') return 'image';
  if (type) return 'other';
  const name = job.file?.name.toLowerCase() ?? '';
  if (name.endsWith('.pdf')) return 'pdf';
  if (/\.(png|jpe?g)$/.test(name)) return 'image';
  return 'other';
}

export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 3;
export const zoomIn = (z: number) => ZOOM_STEPS.find((s) => s > z + 1e-9) ?? z;
export const zoomOut = (z: number) => [...ZOOM_STEPS].reverse().find((s) => s < z - 1e-9) ?? z;

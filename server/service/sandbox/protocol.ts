import type { ParseOutcome, ParseStage } from '../reader/types';

/** What the service sends a reader process. */
export type ParentMessage = { type: 'parse'; id: number; bytes: Uint8Array; timeoutMs: number };

/** What a reader process sends back. */
export type ChildMessage =
  | { type: 'ready' }
  | { type: 'page'; id: number; pageNumber: number; pageCount: number }
  | { type: 'progress'; id: number; fraction: number; stage: ParseStage }
  | { type: 'done'; id: number; outcome: ParseOutcome };

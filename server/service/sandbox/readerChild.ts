import { parseLabReport } from '../reader';
import type { ChildMessage, ParentMessage } from './protocol';

/**
 * A reader process: a thin shell around the parser library. The pool starts it with a heap
 * limit and no secrets in its environment, hands it one document at a time over IPC, and kills
 * it when it breaks a limit. It reports each page as it starts (the watchdog's per-page clock)
 * and its progress; it never touches the database or the network.
 */

/** Exposed by the pool's --expose-gc. */
const gc = (globalThis as { gc?: () => void }).gc;

const send = (message: ChildMessage) => {
  if (process.connected) process.send!(message);
};

process.on('message', (message: ParentMessage) => {
  if (message.type !== 'parse') return;
  const { id, bytes } = message;
  void parseLabReport(bytes, {
    // The pool's clocks are the real limits; this one only stops work stuck on a promise.
    timeoutMs: message.timeoutMs,
    onPage: (pageNumber, pageCount) => {
      // Canvases and decoded images hold native memory the garbage collector does not feel: free
      // the last page's before drawing the next, so a long scan stays at one page's footprint.
      if (pageNumber > 1) gc?.();
      send({ type: 'page', id, pageNumber, pageCount });
    },
    onProgress: (fraction, stage) => send({ type: 'progress', id, fraction, stage }),
  }).then((outcome) => send({ type: 'done', id, outcome }));
});

// The service went away (or closed the pool): nothing left to read for.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });

/**
 * Typed failures and time limits. Every step that touches untrusted bytes (pdfjs, the image
 * decoder, OCR) runs under a deadline and turns its errors into a ParseFailure with a reason a
 * reviewer can read; index.ts turns those into `{ok: false, failureReason}`. Nothing here logs
 * file content: reasons name the problem, never the data.
 */
export class ParseFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ParseFailure';
  }
}

/**
 * Resolves like `work`, or rejects with a ParseFailure after `ms`. `onTimeout` lets the caller
 * tear down what is stuck (destroy a pdfjs task, terminate an OCR worker): a promise cannot be
 * cancelled, but the thing behind it can.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      try {
        onTimeout?.();
      } catch {
        /* tearing down is best effort */
      }
      reject(new ParseFailure(`${what} took longer than ${Math.round(ms / 1000)} s`));
    }, ms);
    timer.unref?.();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Rejects with the signal's reason when it is aborted (the standard AbortSignal behaviour). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

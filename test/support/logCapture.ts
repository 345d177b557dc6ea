import { Writable } from 'node:stream';

/** A pino destination that keeps every line, so a test can assert what a server logged (and what it did not). */
export function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream, text: () => lines.join('\n') };
}

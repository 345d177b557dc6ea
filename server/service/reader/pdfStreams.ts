import { constants, inflateSync } from 'node:zlib';
import { ParseFailure } from './failure';
import { MAX_INFLATED_BYTES, MAX_STREAM_BYTES } from './limits';

/**
 * Refuses a PDF whose compressed streams inflate past the limits, before pdfjs sees it. pdfjs
 * inflates a content stream whole, in memory, to read a page: a 1 MB stream that inflates to 1 GB
 * (deflate reaches ~1000:1) would take the reader to gigabytes. Here each Flate stream is
 * inflated with a ceiling (zlib's maxOutputLength stops at it without allocating more), and the
 * file's total is counted.
 *
 * Streams are found by their `stream` … `endstream` keywords rather than through the
 * cross-reference table: that finds every stream, including those a damaged xref hides (pdfjs
 * recovers those too). Streams whose filter chain does not start with Flate are left to the
 * sandbox's memory ceiling; lab-report generators use Flate.
 */
export function checkInflatedSizes(bytes: Uint8Array): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = 0;
  for (;;) {
    const start = buf.indexOf('stream', at, 'latin1');
    if (start < 0) return;
    at = start + 6;
    // `endstream` contains `stream`; a stream keyword is followed by an end of line.
    if (start >= 3 && buf.toString('latin1', start - 3, start) === 'end') continue;
    let dataStart = at;
    if (buf[dataStart] === 0x0d) dataStart++;
    if (buf[dataStart] !== 0x0a) {
      if (dataStart === at) continue; // not the keyword (e.g. inside a name or string)
    } else {
      dataStart++;
    }
    const before = buf.toString('latin1', Math.max(0, start - 1024), start);
    // The stream's dictionary: from its object's `N G obj` (nested dictionaries make `<<` unreliable).
    const dict = before.slice(Math.max(0, before.lastIndexOf('obj')));
    // The stream's declared length is what pdfjs reads by; searching for `endstream` is the fallback
    // (an `endstream` inside the compressed bytes must not hide the rest of them).
    const declared = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict);
    const searched = buf.indexOf('endstream', dataStart, 'latin1');
    const end = declared && dataStart + Number(declared[1]) <= buf.length ? dataStart + Number(declared[1]) : searched;
    if (end < 0) return;
    if (!/\/Filter\s*\[?\s*\/(?:FlateDecode|Fl)\b/.test(dict)) {
      at = Math.max(end, dataStart);
      continue;
    }
    total += inflatedSize(buf.subarray(dataStart, end), MAX_INFLATED_BYTES - total);
    at = Math.max(end, dataStart);
  }

  function inflatedSize(data: Buffer, room: number): number {
    const ceiling = Math.min(MAX_STREAM_BYTES, room);
    try {
      // Sync flush: a truncated stream yields what it has instead of an error (pdfjs reads those too).
      return inflateSync(data, { maxOutputLength: ceiling, finishFlush: constants.Z_SYNC_FLUSH }).length;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') return 0; // damaged: pdfjs decides
      const mb = Math.round(ceiling / (1024 * 1024));
      throw new ParseFailure(
        ceiling === MAX_STREAM_BYTES
          ? `the PDF holds a compressed stream that expands to more than ${mb} MB; a lab report needs far less, so the file is not read`
          : `the PDF's compressed streams expand to more than ${Math.round(MAX_INFLATED_BYTES / (1024 * 1024))} MB together; a lab report needs far less, so the file is not read`,
      );
    }
  }
}

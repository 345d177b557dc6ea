/**
 * Reads a file of mindfulness sessions for `npm run import:timeseries`, one point at a time, in
 * bounded memory (a file of millions of rows never sits in memory whole):
 *
 * - `.csv`: a header line naming the columns `user_id`, `provider`, `start`, `end`, `value` and,
 *   optionally, `source_type` and `timezone_offset` (any order; an empty cell means absent), then
 *   one session per line. Fields may be quoted ("…", with "" for a quote); a field cannot span lines.
 * - `.json`: an array of points (the import endpoint's point objects), read element by element; or
 *   one point object per line (JSON Lines, also as `.jsonl` / `.ndjson`).
 *
 * Each point comes with the line it starts on, so a bad one can be named.
 */
import fs from 'node:fs';
import readline from 'node:readline';

export interface FilePoint {
  line: number;
  point: Record<string, unknown>;
}

export class BadInput extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** A JSON element larger than this is refused: a point is ~200 bytes. */
const MAX_ELEMENT_CHARS = 64 * 1024;

export function formatOf(file: string): 'csv' | 'json' {
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(json|jsonl|ndjson)$/i.test(file)) return 'json';
  throw new Error(`${file}: expected a .csv or .json file`);
}

export function readPoints(file: string): AsyncGenerator<FilePoint> {
  return formatOf(file) === 'csv' ? readCsv(file) : readJson(file);
}

/** One CSV line's fields (RFC 4180 quoting within the line). */
export function csvFields(line: string, lineNo: number): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new BadInput(lineNo, 'a quoted field is not closed on its line');
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      out.push(value);
      if (i < line.length && line[i] !== ',') throw new BadInput(lineNo, 'text after a closing quote');
    } else {
      const comma = line.indexOf(',', i);
      out.push((comma < 0 ? line.slice(i) : line.slice(i, comma)).trim());
      i = comma < 0 ? line.length : comma;
    }
    if (i >= line.length) return out;
    i++; // the comma
  }
}

const CSV_REQUIRED = ['user_id', 'provider', 'start', 'end', 'value'];
const CSV_KNOWN = new Set([...CSV_REQUIRED, 'source_type', 'timezone_offset']);

async function* readCsv(file: string): AsyncGenerator<FilePoint> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let header: string[] | null = null;
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo++;
    const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (!line.trim()) continue;
    const fields = csvFields(line, lineNo);
    if (!header) {
      header = fields.map((f) => f.toLowerCase());
      const missing = CSV_REQUIRED.filter((c) => !header!.includes(c));
      if (missing.length) throw new BadInput(lineNo, `the header lacks ${missing.join(', ')} (columns: ${CSV_REQUIRED.join(', ')}, and optionally source_type, timezone_offset)`);
      const unknown = header.filter((c) => !CSV_KNOWN.has(c));
      if (unknown.length) throw new BadInput(lineNo, `unknown column ${unknown.join(', ')}`);
      continue;
    }
    if (fields.length !== header.length) throw new BadInput(lineNo, `${fields.length} fields where the header has ${header.length}`);
    const point: Record<string, unknown> = {};
    header.forEach((name, k) => {
      const cell = fields[k]!;
      if (cell === '') return; // absent: the default applies (or the point is refused for lacking it)
      point[name] = name === 'value' || name === 'timezone_offset' ? numberOrText(cell) : cell;
    });
    yield { line: lineNo, point };
  }
  if (!header) throw new BadInput(lineNo || 1, 'the file is empty (a header line is expected)');
}

const numberOrText = (cell: string) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(cell) ? Number(cell) : cell);

/** A JSON array read element by element, or JSON Lines. */
async function* readJson(file: string): AsyncGenerator<FilePoint> {
  let mode: 'unknown' | 'array' | 'lines' = 'unknown';
  let depth = 0; // in array mode: 1 inside the array, 2+ inside an element
  let inString = false;
  let escaped = false;
  let element = '';
  let elementLine = 0;
  let lineNo = 1;
  let ended = false;
  const parse = (text: string, line: number): FilePoint => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new BadInput(line, 'is not valid JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new BadInput(line, 'a point must be a JSON object');
    return { line, point: value as Record<string, unknown> };
  };
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 }) as AsyncIterable<string>) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (mode === 'unknown') {
        if (c === '\n') lineNo++;
        if (/\s|\uFEFF/.test(c)) continue;
        if (c === '[') {
          mode = 'array';
          depth = 1;
          continue;
        }
        if (c !== '{') throw new BadInput(lineNo, 'expected a JSON array of points, or one point object per line');
        mode = 'lines';
      }
      if (mode === 'lines') {
        if (c === '\n') {
          if (element.trim()) yield parse(element, lineNo);
          element = '';
          lineNo++;
          continue;
        }
        element += c;
        if (element.length > MAX_ELEMENT_CHARS) throw new BadInput(lineNo, `a line longer than ${MAX_ELEMENT_CHARS} characters`);
        continue;
      }
      // An array: split it into its elements, following strings so brackets inside them do not count.
      if (c === '\n') lineNo++;
      if (ended) {
        if (!/\s/.test(c)) throw new BadInput(lineNo, 'text after the end of the array');
        continue;
      }
      if (depth >= 2) {
        element += c;
        if (element.length > MAX_ELEMENT_CHARS) throw new BadInput(elementLine, `a point longer than ${MAX_ELEMENT_CHARS} characters`);
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') {
          depth--;
          if (depth === 1) {
            yield parse(element, elementLine);
            element = '';
          }
        }
        continue;
      }
      if (/\s|,/.test(c)) continue;
      if (c === ']') {
        ended = true;
        continue;
      }
      if (c !== '{') throw new BadInput(lineNo, 'a point must be a JSON object');
      depth = 2;
      element = c;
      elementLine = lineNo;
    }
  }
  if (mode === 'lines' && element.trim()) yield parse(element, lineNo);
  if (mode === 'array' && !ended) throw new BadInput(lineNo, 'the array is not closed');
  if (mode === 'unknown') throw new BadInput(lineNo, 'the file is empty');
}

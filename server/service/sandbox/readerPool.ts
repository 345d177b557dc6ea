import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { nodeEntry, runningFromBundle } from '../../lib/entries';
import type { ParseOptions, ParseOutcome } from '../reader/types';
import { residentBytes } from './processMemory';
import type { ChildMessage, ParentMessage } from './protocol';

/**
 * Untrusted documents are read in a small pool of reader processes, never on the service's event
 * loop: a PDF or a photo can cost seconds of CPU and, if built to, gigabytes of native memory
 * (image decoders, canvases and the OCR engine allocate outside V8's heap, where worker threads'
 * resourceLimits do not reach). A separate process can be measured from outside and killed.
 *
 * Each reader runs one document at a time under a watchdog that samples its resident memory and
 * its clocks every 100 ms: past the memory ceiling, a page's time or the document's time it is
 * killed, and the parse resolves as a failure whose reason a reviewer can read. The pixel budgets
 * and stream limits inside the reader (parser/limits.ts) stop nearly every such file before it
 * allocates; the watchdog is the backstop. Readers start when needed and exit when idle, so the
 * OCR engine's memory is not held at rest. Shutting the pool down rejects the parses in flight
 * (the job runner retries them after the restart) rather than failing them.
 */

export interface ReaderPoolOptions {
  /** Reader processes at most; by default one per core, at most four. */
  size?: number;
  /** Resident memory of one reader (its OCR threads included) past which it is killed. */
  memoryLimitBytes?: number;
  /** A page (opening, text, rendering, OCR) past this is stopped. */
  pageTimeMs?: number;
  /** The whole document past this is stopped. */
  jobTimeMs?: number;
  /** An idle reader exits after this, releasing the OCR engine and pdfjs. */
  idleMs?: number;
  /** The reader's entry point (TypeScript, run through tsx); tests use stand-ins that crash or hang. */
  childScript?: string;
}

export interface ReaderPoolStats {
  size: number;
  running: number;
  busy: number;
  /** Highest resident memory any reader reached. */
  peakReaderBytes: number;
  parsed: number;
  stoppedForMemory: number;
  stoppedForTime: number;
  crashed: number;
}

const MB = 1024 * 1024;
const WATCH_EVERY_MS = 100;
const START_TIMEOUT_MS = 30_000;
/** Past this share of its ceiling after a document, a reader is replaced by a fresh one. */
const RETIRE_SHARE = 0.6;

/**
 * glibc's allocator settings for readers: two arenas, and freed memory handed back to the system
 * from 128 KB up. A reader allocates and frees a page's bitmaps (tens of MB) per page; by default
 * glibc keeps the freed heap, and a 40-page scan settled ~140 MB higher (measured in-process).
 */
const READER_MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' };

export const DEFAULT_READERS = Math.max(1, Math.min(4, os.availableParallelism()));


interface Reader {
  child: ChildProcess;
  started: Promise<void>;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
}

/** The parse was abandoned because the pool is shutting down: retry it later, it did not fail. */
export class ReaderPoolClosed extends Error {
  constructor() {
    super('the document reader is shutting down');
    this.name = 'ReaderPoolClosed';
  }
}

export class ReaderPool {
  readonly size: number;
  private readonly memoryLimit: number;
  private readonly pageTimeMs: number;
  private readonly jobTimeMs: number;
  private readonly idleMs: number;
  private readonly childScript: string;
  private readonly readers = new Set<Reader>();
  private readonly waiting: ((reader: Reader) => void)[] = [];
  private readonly inFlight = new Set<() => void>();
  private closed = false;
  private nextId = 1;
  private entry?: { script: string; execArgv: string[] };
  private readonly counters = { peakReaderBytes: 0, parsed: 0, stoppedForMemory: 0, stoppedForTime: 0, crashed: 0 };

  constructor(opts: ReaderPoolOptions = {}) {
    this.size = opts.size ?? DEFAULT_READERS;
    this.memoryLimit = opts.memoryLimitBytes ?? 600 * MB;
    this.pageTimeMs = opts.pageTimeMs ?? 60_000;
    this.jobTimeMs = opts.jobTimeMs ?? 240_000;
    this.idleMs = opts.idleMs ?? 20_000;
    this.childScript = opts.childScript ?? '';
  }

  stats(): ReaderPoolStats {
    const busy = [...this.readers].filter((r) => r.busy).length;
    return { size: this.size, running: this.readers.size, busy, ...this.counters };
  }

  /** Resident memory of the readers running now, together. */
  residentBytes(): number {
    let total = 0;
    for (const r of this.readers) total += (r.child.pid && residentBytes(r.child.pid)) || 0;
    return total;
  }

  /** Reads one document in a reader process; a broken limit resolves as a failure with its reason. */
  parse = async (bytes: Uint8Array, opts: ParseOptions = {}): Promise<ParseOutcome> => {
    if (this.closed) throw new ReaderPoolClosed();
    const reader = await this.acquire();
    try {
      return await this.watch(reader, bytes, opts);
    } finally {
      this.release(reader);
    }
  };

  /** Kills every reader; parses in flight reject with ReaderPoolClosed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const abandon of this.inFlight) abandon();
    const exits = [...this.readers].map((r) => this.kill(r));
    await Promise.all(exits);
  }

  private async acquire(): Promise<Reader> {
    this.entry ??= await this.readerEntry();
    const idle = [...this.readers].find((r) => !r.busy);
    const reader = idle ?? (this.readers.size < this.size ? this.spawn() : await new Promise<Reader>((resolve) => this.waiting.push(resolve)));
    reader.busy = true;
    clearTimeout(reader.idleTimer);
    try {
      await reader.started;
    } catch (err) {
      this.readers.delete(reader);
      // Shut down while the reader was still starting: the document is read again after the restart, as one in flight is.
      throw this.closed ? new ReaderPoolClosed() : err;
    }
    return reader;
  }

  private release(reader: Reader) {
    reader.busy = false;
    // A reader that came out of a document large (pdfjs and image memory the allocator keeps) is
    // retired rather than reused, so the next document starts from a small process.
    const rss = reader.child.pid ? residentBytes(reader.child.pid) : undefined;
    if (rss !== undefined && rss > this.memoryLimit * RETIRE_SHARE) void this.kill(reader);
    if (!this.readers.has(reader)) {
      // It was killed: a waiting parse gets a new reader instead.
      const next = this.waiting.shift();
      if (next) next(this.spawn());
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      next(reader);
      return;
    }
    reader.idleTimer = setTimeout(() => void this.kill(reader), this.idleMs);
    reader.idleTimer.unref();
  }

  /**
   * Readers run from a bundle on plain Node, as under `npm start`, also when the service runs from
   * its sources (tests, tsx): through tsx a reader holds ~200 MB more (the transpiled pdfjs), and
   * its memory ceiling would be measured against a process production never runs.
   */
  private async readerEntry(): Promise<{ script: string; execArgv: string[] }> {
    if (this.childScript) return { script: this.childScript, execArgv: nodeEntry('reader', false).execArgv };
    if (runningFromBundle) return nodeEntry('reader');
    const { bundleOf } = await import('../../build');
    return { script: bundleOf('reader'), execArgv: [] };
  }

  private spawn(): Reader {
    // No secrets and no database address in a reader's environment: it reads bytes, nothing else.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, NODE_ENV: process.env.NODE_ENV, ...READER_MALLOC };
    const heapMb = Math.max(128, Math.floor(this.memoryLimit / MB / 2));
    const entry = this.entry!;
    const child = fork(entry.script, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${heapMb}`, '--expose-gc'],
      env,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const started = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the document reader did not start')), START_TIMEOUT_MS);
      child.once('message', (m: ChildMessage) => {
        clearTimeout(timer);
        if (m.type === 'ready') resolve();
        else reject(new Error('the document reader started wrongly'));
      });
      child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error('the document reader exited while starting'));
      });
    });
    started.catch(() => {});
    const reader: Reader = { child, started, busy: false };
    child.once('exit', () => this.readers.delete(reader));
    this.readers.add(reader);
    return reader;
  }

  private kill(reader: Reader): Promise<void> {
    this.readers.delete(reader);
    clearTimeout(reader.idleTimer);
    const { child } = reader;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  private watch(reader: Reader, bytes: Uint8Array, opts: ParseOptions): Promise<ParseOutcome> {
    const { child } = reader;
    const id = this.nextId++;
    const started = Date.now();
    let page = 0;
    let pageCount = 0;
    let pageStarted = started;

    return new Promise<ParseOutcome>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: ParseOutcome | Error) => {
        if (settled) return;
        settled = true;
        clearInterval(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        this.inFlight.delete(abandon);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const stop = (reason: string, counter: 'stoppedForMemory' | 'stoppedForTime') => {
        this.counters[counter]++;
        void this.kill(reader);
        finish({ ok: false, failureReason: reason });
      };
      const onMessage = (m: ChildMessage) => {
        if (m.type === 'ready' || m.id !== id) return;
        if (m.type === 'page') {
          page = m.pageNumber;
          pageCount = m.pageCount;
          pageStarted = Date.now();
        } else if (m.type === 'progress') {
          opts.onProgress?.(m.fraction, m.stage);
        } else {
          this.counters.parsed++;
          finish(m.outcome);
        }
      };
      const onExit = () => {
        if (this.closed) return finish(new ReaderPoolClosed());
        this.counters.crashed++;
        finish({ ok: false, failureReason: crashReason(page, pageCount) });
      };
      const abandon = () => finish(new ReaderPoolClosed());
      const timer = setInterval(() => {
        const rss = residentBytes(child.pid ?? -1);
        if (rss !== undefined) {
          this.counters.peakReaderBytes = Math.max(this.counters.peakReaderBytes, rss);
          if (rss > this.memoryLimit) return stop(memoryReason(this.memoryLimit, page, pageCount), 'stoppedForMemory');
        }
        const now = Date.now();
        if (now - started > this.jobTimeMs) return stop(jobTimeReason(this.jobTimeMs, page, pageCount), 'stoppedForTime');
        if (page > 0 && now - pageStarted > this.pageTimeMs) return stop(pageTimeReason(this.pageTimeMs, page), 'stoppedForTime');
      }, WATCH_EVERY_MS);

      this.inFlight.add(abandon);
      child.on('message', onMessage);
      child.once('exit', onExit);
      const message: ParentMessage = { type: 'parse', id, bytes, timeoutMs: this.jobTimeMs + 10_000 };
      child.send(message, (err) => {
        if (err) finish(this.closed ? new ReaderPoolClosed() : { ok: false, failureReason: crashReason(0, 0) });
      });
    });
  }
}

const where = (page: number, pageCount: number) => (page > 0 && pageCount > 1 ? ` (at page ${page} of ${pageCount})` : '');

function memoryReason(limit: number, page: number, pageCount: number) {
  return (
    `Reading the report needed more than ${Math.round(limit / MB)} MB of memory${where(page, pageCount)}, so it was stopped. ` +
    'The file may be damaged or built to exhaust the reader; upload a new copy, or a scan or photo of the report.'
  );
}

function pageTimeReason(limit: number, page: number) {
  return (
    `Page ${page} took longer than ${Math.round(limit / 1000)} s to read, so reading was stopped. ` +
    'Upload a clearer scan or photo of the report, or the pages with the results on their own.'
  );
}

function jobTimeReason(limit: number, page: number, pageCount: number) {
  return (
    `Reading the report took longer than ${Math.round(limit / 1000)} s${where(page, pageCount)}, so it was stopped. ` +
    'Upload the pages with the results on their own.'
  );
}

function crashReason(page: number, pageCount: number) {
  return (
    `The reader stopped unexpectedly while reading the report${where(page, pageCount)}; the file may be damaged. ` +
    'Upload a new copy, or a scan or photo of the report.'
  );
}

/** Parses one team may run at once: half the readers (at least one), so others always find one free. */
export const parsePerTeam = (readers: number) => Math.max(1, Math.floor(readers / 2));

import { readFileSync } from 'node:fs';

/**
 * Resident memory of another process (all its threads: the OCR engine runs in worker threads of
 * the reader process), from /proc. Undefined where /proc is not there (macOS): the reader's
 * heap limit and the pixel budgets still hold there, the watchdog's memory ceiling does not.
 */
export function residentBytes(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

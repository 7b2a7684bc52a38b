// Follows hb-service's homebridge.log (UI, supervisor and Homebridge lines) and lets tests wait for a line.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

import { stripAnsi, tailLines, withoutStatefulFlags } from './ui-util.js';

/** How often the log file is read for new bytes. */
export const LOG_POLL_INTERVAL_MS = 100;
/** Largest read per poll. */
const LOG_READ_CHUNK_BYTES = 256 * 1024;

export interface WaitForLogOptions {
  /** Only consider lines from this index on (see `lineCount()`); default 0, the whole log. */
  fromLine?: number;
}

export interface LogFollower {
  /** Everything logged so far, ANSI codes stripped. */
  text(): string;
  /** Number of complete lines so far: a mark for `waitForLog(re, ms, { fromLine })`. */
  lineCount(): number;
  /** The last lines, for error messages. */
  tail(lines?: number): string;
  /** Resolves with the first complete line matching `re`; rejects on time-out or once the process has ended, with the log tail. */
  waitForLog(re: RegExp, timeoutMs: number, opts?: WaitForLogOptions): Promise<string>;
  /** Adds a line from another source (hb-service's own stdout/stderr). */
  push(line: string): void;
  /** Reads what is left, then rejects every pending and later wait with `reason`. */
  end(reason: string): Promise<void>;
  /** Stops polling the file. */
  close(): Promise<void>;
}

interface Waiter {
  pattern: RegExp;
  fromLine: number;
  resolve: (line: string) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** Starts polling `file` (which may not exist yet). */
export function followLog(file: string, echoPrefix?: string): LogFollower {
  const lines: string[] = [];
  let partial = '';
  let offset = 0;
  let handle: FileHandle | undefined;
  let ended: string | undefined;
  let closed = false;
  let reading: Promise<void> = Promise.resolve();
  const waiters = new Set<Waiter>();

  const settle = (waiter: Waiter): void => {
    clearTimeout(waiter.timer);
    waiters.delete(waiter);
  };
  const addLine = (raw: string): void => {
    const line = stripAnsi(raw).replace(/\r$/, '');
    lines.push(line);
    if (echoPrefix !== undefined) process.stdout.write(`${echoPrefix} ${line}\n`);
    for (const waiter of [...waiters]) {
      if (lines.length > waiter.fromLine && waiter.pattern.test(line)) {
        settle(waiter);
        waiter.resolve(line);
      }
    }
  };

  const readMore = async (): Promise<void> => {
    if (handle === undefined) {
      try {
        handle = await open(file, 'r');
      } catch {
        return; // hb-service has not created it yet
      }
    }
    const buffer = Buffer.alloc(LOG_READ_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) return;
      offset += bytesRead;
      partial += buffer.subarray(0, bytesRead).toString('utf8');
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const part of parts) addLine(part);
    }
  };
  const poll = (): Promise<void> => {
    reading = reading.then(readMore).catch(() => undefined);
    return reading;
  };
  const timer = setInterval(() => void poll(), LOG_POLL_INTERVAL_MS);

  const text = (): string => lines.map((l) => `${l}\n`).join('');
  const tail = (n?: number): string => tailLines(text(), n);

  return {
    text,
    lineCount: () => lines.length,
    tail,
    push: addLine,
    waitForLog(re, timeoutMs, opts = {}) {
      const pattern = withoutStatefulFlags(re);
      const fromLine = opts.fromLine ?? 0;
      const existing = lines.slice(fromLine).find((line) => pattern.test(line));
      if (existing !== undefined) return Promise.resolve(existing);
      if (ended !== undefined) return Promise.reject(new Error(`${ended} before logging ${String(re)}. Log:\n${tail()}`));
      return new Promise<string>((resolve, reject) => {
        const waiter: Waiter = {
          pattern,
          fromLine,
          resolve,
          reject,
          timer: setTimeout(() => {
            settle(waiter);
            reject(new Error(`Nothing matching ${String(re)} was logged within ${timeoutMs} ms. Log:\n${tail()}`));
          }, timeoutMs),
        };
        // Lines already seen are checked above; only new lines (index >= now) can match.
        waiter.fromLine = Math.max(fromLine, lines.length);
        waiters.add(waiter);
      });
    },
    async end(reason) {
      await poll();
      if (partial !== '') {
        addLine(partial);
        partial = '';
      }
      ended = reason;
      for (const waiter of [...waiters]) {
        settle(waiter);
        waiter.reject(new Error(`${reason} before logging ${String(waiter.pattern)}. Log:\n${tail()}`));
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await reading;
      await handle?.close();
      handle = undefined;
    },
  };
}

// The one log double of the tests: a Homebridge Logging that records each line with its level, and counts them.
import type { Logging } from 'homebridge';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'success';

export interface LogLine {
  level: LogLevel;
  text: string;
}

export type CapturedLog = Logging & {
  /** The lines, oldest first (only the newest `keep` when a limit was given). */
  readonly lines: LogLine[];
  /** Every line ever logged, per level, kept lines or not. */
  readonly counts: Record<LogLevel, number>;
  /** The texts of the kept lines at one level. */
  texts(level: LogLevel): string[];
};

/** `keep` bounds the lines held, so a run of 100,000 iterations keeps counting without growing. */
export function captureLog(options: { keep?: number } = {}): CapturedLog {
  const lines: LogLine[] = [];
  const counts: Record<LogLevel, number> = { debug: 0, info: 0, warn: 0, error: 0, success: 0 };
  const at = (level: LogLevel) => (text: string) => {
    counts[level] += 1;
    lines.push({ level, text });
    if (options.keep !== undefined && lines.length > options.keep) {
      lines.shift();
    }
  };
  return Object.assign(at('info'), {
    lines,
    counts,
    texts: (level: LogLevel) => lines.filter((line) => line.level === level).map((line) => line.text),
    prefix: 'Access Control',
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    success: at('success'),
    log: (_level: string, text: string) => at('info')(text),
  });
}

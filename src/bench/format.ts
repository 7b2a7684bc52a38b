// Number formatting for the report: durations in ms or s, memory in MiB, and one Markdown table row per Summary.
import type { Summary } from './stats.js';

const KIB_PER_MIB = 1024;
const MS_PER_S = 1000;

/** e.g. `3.42 ms`, `61.7 ms`, `254 ms`; `n/a` for NaN. */
export function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ms`;
}

/** e.g. `2.48 s` from milliseconds. */
export function seconds(valueMs: number | undefined): string {
  if (valueMs === undefined || !Number.isFinite(valueMs)) return 'n/a';
  return `${(valueMs / MS_PER_S).toFixed(2)} s`;
}

export function mib(kib: number | undefined): string {
  return kib === undefined ? 'n/a' : `${(kib / KIB_PER_MIB).toFixed(1)} MiB`;
}

export const SUMMARY_HEADER = '| | n | median | p90 | p99 | min | max | spread (IQR) |\n|---|---:|---:|---:|---:|---:|---:|---:|';

/** One table row: the label, then n, median, p90, p99, min, max, IQR, each through `unit`. */
export function summaryRow(label: string, summary: Summary, unit: (value: number) => string = ms): string {
  const cells = [summary.median, summary.p90, summary.p99, summary.min, summary.max, summary.iqr].map(unit);
  return `| ${label} | ${summary.n} | ${cells.join(' | ')} |`;
}

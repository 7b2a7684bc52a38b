// Number formatting for the report: durations, sizes, percentages and rates, and one Markdown table row per Summary.
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

/** e.g. `412 KiB`, `38.5 KiB`, `n/a`. */
export function kib(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value.toFixed(Math.abs(value) < 100 ? 1 : 0)} KiB`;
}

/** A size in bytes, e.g. `612 B`, `3.4 KiB`. */
export function bytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value < 1024 ? `${Math.round(value)} B` : kib(value / 1024);
}

/** e.g. `0.42 %`. */
export function percent(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value.toFixed(value < 10 ? 2 : 1)} %`;
}

/** A rate, e.g. `240` or `12.0`. */
export function perHour(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value < 100 ? value.toFixed(1) : value.toFixed(0);
}

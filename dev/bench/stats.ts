// Order statistics of a set of samples: median, p90/p99, min/max and the interquartile spread.

export interface Summary {
  /** Number of samples. */
  n: number;
  min: number;
  median: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** Interquartile range (p75 - p25): how widely the middle half of the samples spreads. */
  iqr: number;
}

/** The q-quantile (0..1) of ascending `sorted`, interpolated linearly between neighbours (numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const below = Math.floor(position);
  const lower = sorted[below] ?? Number.NaN;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] ?? lower;
  return lower + (upper - lower) * (position - below);
}

/** Summary of `samples` (any order); every figure is NaN when there is none. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.length > 0 ? total / sorted.length : Number.NaN,
    iqr: quantile(sorted, 0.75) - quantile(sorted, 0.25),
  };
}

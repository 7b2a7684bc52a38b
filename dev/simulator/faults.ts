// Programmable failures (per endpoint or for all, optionally for N requests) that the simulator serves instead of answers.

export type SimFault =
  /** `retryAfter` is sent as is (an HTTP date, say) and wins over `retryAfterS`. */
  | { kind: 'status'; status: number; retryAfterS?: number; retryAfter?: string; body?: string }
  | { kind: 'invalid-json' }
  | { kind: 'schema' }
  | { kind: 'corrupt-gzip' }
  | { kind: 'truncated' }
  | { kind: 'reset' }
  | { kind: 'hang' }
  /**
   * The normal answer (or the fault `then`), after `ms` of real time: a slow service, to have a request still in flight
   * when something else happens.
   */
  | { kind: 'delay'; ms: number; then?: SimFault }
  /** 200 and headers at once, then one byte of whitespace every `intervalMs` without end: each gap within the body time-out. */
  | { kind: 'trickle'; intervalMs: number }
  | { kind: 'refuse' };

export type SimEndpoint = 'sync' | 'toggle' | 'history';
export type FaultScope = SimEndpoint | 'all';

export interface FaultOptions {
  /** Serve the fault for this many matching requests, then answer normally again. Default: until cleared. */
  times?: number;
}

interface ArmedFault {
  fault: SimFault;
  remaining: number;
}

export class FaultTable {
  private readonly armed = new Map<FaultScope, ArmedFault>();

  set(scope: FaultScope, fault: SimFault | null, options: FaultOptions = {}): void {
    if (fault === null) {
      this.armed.delete(scope);
      return;
    }
    const times = options.times ?? Number.POSITIVE_INFINITY;
    if (!(times > 0)) {
      throw new RangeError('times must be a positive number');
    }
    this.armed.set(scope, { fault, remaining: times });
  }

  /** The fault to serve for one request to `endpoint`, if any; an endpoint's own fault wins over 'all'. */
  take(endpoint: SimEndpoint): SimFault | undefined {
    for (const scope of [endpoint, 'all'] as const) {
      const armed = this.armed.get(scope);
      if (armed) {
        armed.remaining -= 1;
        if (armed.remaining <= 0) {
          this.armed.delete(scope);
        }
        return armed.fault;
      }
    }
    return undefined;
  }

  clear(): void {
    this.armed.clear();
  }
}

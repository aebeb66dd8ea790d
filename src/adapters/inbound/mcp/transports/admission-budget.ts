import type { AdmissionObserver } from '../../../shared/metrics.port.js';

/** The admission budget's limits, in bytes of request bodies (HTTP) or lines (stdio) being read or held. */
export interface AdmissionLimits {
  /** Across the whole server (limits.inflight_request_bytes). */
  readonly total: number;
  /** Per principal (limits.inflight_request_bytes_per_principal). */
  readonly perPrincipal: number;
}

export const TOTAL_LIMIT = 'limits.inflight_request_bytes';
export const PRINCIPAL_LIMIT = 'limits.inflight_request_bytes_per_principal';
export type AdmissionLimitName = typeof TOTAL_LIMIT | typeof PRINCIPAL_LIMIT;

/** A request's first bytes up to this size are small: they draw on the whole budget and never on the principal's share. */
export const SMALL_REQUEST_BYTES = 64 * 1024;
/** The part of the total that only small bytes may use, so large requests can never starve small ones. */
export const SMALL_SLICE_DIVISOR = 8;

/**
 * The bytes of requests the server reads or holds at once, across the server and per principal
 * (issue 27.5). Each request opens an Admission and grows it as its bytes arrive (or to its declared
 * length at once); a growth that would pass a limit is refused and changes nothing. Everything is
 * given back by release() when the request is answered.
 *
 * Small requests are never starved: a request's first SMALL_REQUEST_BYTES are checked only against
 * the total, while bytes past them must also fit in the total less a slice of 1/SMALL_SLICE_DIVISOR
 * and in the principal's share. So large requests together hold at most 7/8 of the total, and the
 * last eighth (32 MiB at the default, 512 small requests) is kept for small ones.
 */
export class AdmissionBudget {
  private held = 0;
  /** Per principal, only the bytes past each request's first SMALL_REQUEST_BYTES. */
  private readonly largeByPrincipal = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private observer?: AdmissionObserver;

  constructor(readonly limits: AdmissionLimits) {}

  get inFlight(): number {
    return this.held;
  }

  observe(observer: AdmissionObserver): void {
    this.observer = observer;
  }

  /** The largest request that can ever be admitted, whatever else is in flight. */
  get largestAdmissible(): number {
    return Math.min(this.limits.total - this.smallSlice(), this.limits.perPrincipal + SMALL_REQUEST_BYTES);
  }

  open(principal: string): Admission {
    return new Admission(this, principal);
  }

  /** Resolves at the next release, or after `ms`, whichever is first. */
  room(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }

  /** Grows a request from `from` to `to` bytes, or names the limit it would pass (and nothing changes). */
  grow(principal: string, from: number, to: number): AdmissionLimitName | undefined {
    const added = to - from;
    if (added <= 0) return undefined;
    const large = largePart(to) - largePart(from);
    const ownLarge = this.largeByPrincipal.get(principal) ?? 0;
    let refusal: AdmissionLimitName | undefined;
    if (this.held + added > this.limits.total - (large > 0 ? this.smallSlice() : 0)) refusal = TOTAL_LIMIT;
    else if (large > 0 && ownLarge + large > this.limits.perPrincipal) refusal = PRINCIPAL_LIMIT;
    if (refusal !== undefined) return refusal;
    this.held += added;
    if (large > 0) this.largeByPrincipal.set(principal, ownLarge + large);
    this.observer?.requestBytesAdmitted(added);
    return undefined;
  }

  /** A request of `bytes` was turned away for good (after any wait): counted once, not per refused growth. */
  refused(bytes: number): void {
    this.observer?.requestBytesRefused(bytes);
  }

  /** Gives back a request's `bytes` (all it held). */
  giveBack(principal: string, bytes: number): void {
    if (bytes <= 0) return;
    this.held -= bytes;
    const left = (this.largeByPrincipal.get(principal) ?? 0) - largePart(bytes);
    if (left > 0) this.largeByPrincipal.set(principal, left);
    else this.largeByPrincipal.delete(principal);
    for (const wake of [...this.waiters]) wake();
  }

  private smallSlice(): number {
    return Math.floor(this.limits.total / SMALL_SLICE_DIVISOR);
  }
}

function largePart(requestBytes: number): number {
  return Math.max(0, requestBytes - SMALL_REQUEST_BYTES);
}

/** One request's hold on the budget. */
export class Admission {
  private bytes = 0;
  private released = false;

  constructor(
    private readonly budget: AdmissionBudget,
    readonly principal: string,
  ) {}

  get held(): number {
    return this.bytes;
  }

  /** Holds at least `total` bytes for this request, or names the limit that refuses it (and holds what it held). */
  growTo(total: number): AdmissionLimitName | undefined {
    // A request answered (or gone) while it waited holds nothing more; whatever still reads it ends soon.
    if (this.released) return undefined;
    const refusal = this.budget.grow(this.principal, this.bytes, total);
    if (refusal === undefined && total > this.bytes) this.bytes = total;
    return refusal;
  }

  /** Gives every byte back; safe to call more than once. */
  release(): void {
    this.released = true;
    const bytes = this.bytes;
    this.bytes = 0;
    this.budget.giveBack(this.principal, bytes);
  }
}

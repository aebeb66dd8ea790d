import {
  AdmissionBudget,
  PRINCIPAL_LIMIT,
  SMALL_REQUEST_BYTES,
  TOTAL_LIMIT,
} from '../../../../../src/adapters/inbound/mcp/transports/admission-budget.js';
import type { AdmissionObserver } from '../../../../../src/adapters/shared/metrics.port.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Records what the metrics would see. */
class CountingObserver implements AdmissionObserver {
  admitted = 0;
  refused = 0;
  requestBytesAdmitted(bytes: number): void {
    this.admitted += bytes;
  }
  requestBytesRefused(bytes: number): void {
    this.refused += bytes;
  }
}

/** 64 MiB in all, 32 MiB a principal: large requests may hold 56 MiB together, 8 MiB stays for small ones. */
function budget() {
  const made = new AdmissionBudget({ total: 64 * MiB, perPrincipal: 32 * MiB });
  const observer = new CountingObserver();
  made.observe(observer);
  return { budget: made, observer };
}

describe('AdmissionBudget', () => {
  it('holds what each request grows to, refuses past the principal share, and gives everything back on release', () => {
    const { budget: admissions, observer } = budget();
    const first = admissions.open('alice');
    expect(first.growTo(20 * MiB)).toBeUndefined();
    const second = admissions.open('alice');
    expect(second.growTo(10 * MiB)).toBeUndefined();
    expect(second.growTo(13 * MiB)).toBe(PRINCIPAL_LIMIT);
    expect(second.held).toBe(10 * MiB);
    expect(admissions.inFlight).toBe(30 * MiB);
    expect(observer.admitted).toBe(30 * MiB);
    first.release();
    first.release();
    expect(admissions.inFlight).toBe(10 * MiB);
    expect(second.growTo(13 * MiB)).toBeUndefined();
    second.release();
    expect(admissions.inFlight).toBe(0);
  });

  it('refuses a large request past the total less the small slice, whoever asks', () => {
    const { budget: admissions } = budget();
    expect(admissions.open('alice').growTo(30 * MiB)).toBeUndefined();
    expect(admissions.open('bob').growTo(26 * MiB)).toBeUndefined();
    expect(admissions.inFlight).toBe(56 * MiB);
    expect(admissions.open('carol').growTo(1 * MiB)).toBe(TOTAL_LIMIT);
  });

  it('lets small requests in while large ones hold all they may, from the same principal too', () => {
    const { budget: admissions } = budget();
    expect(admissions.open('alice').growTo(32 * MiB)).toBeUndefined();
    expect(admissions.open('bob').growTo(24 * MiB)).toBeUndefined();
    const small = Array.from({ length: 100 }, () => admissions.open('alice'));
    for (const request of small) expect(request.growTo(SMALL_REQUEST_BYTES)).toBeUndefined();
    expect(admissions.inFlight).toBe(56 * MiB + 100 * SMALL_REQUEST_BYTES);
    // Past its first 64 KiB a request is large again: the principal's share and the total's 7/8 apply.
    expect(small[0].growTo(SMALL_REQUEST_BYTES + 1)).toBe(TOTAL_LIMIT);
  });

  it('bounds even small requests by the total', () => {
    const { budget: admissions } = budget();
    const requests = Array.from({ length: (64 * MiB) / SMALL_REQUEST_BYTES }, () => admissions.open('alice'));
    for (const request of requests) expect(request.growTo(SMALL_REQUEST_BYTES)).toBeUndefined();
    expect(admissions.open('bob').growTo(1)).toBe(TOTAL_LIMIT);
  });

  it('names the largest request it can ever admit', () => {
    expect(budget().budget.largestAdmissible).toBe(32 * MiB + SMALL_REQUEST_BYTES);
    expect(new AdmissionBudget({ total: 16 * MiB, perPrincipal: 16 * MiB }).largestAdmissible).toBe(14 * MiB);
  });

  it('wakes a waiter at the next release, and after its time otherwise', async () => {
    const { budget: admissions } = budget();
    const holder = admissions.open('alice');
    holder.growTo(32 * MiB);
    const started = Date.now();
    const woken = admissions.room(5000);
    setTimeout(() => holder.release(), 20);
    await woken;
    expect(Date.now() - started).toBeLessThan(1000);
    const timedOut = Date.now();
    await admissions.room(30);
    expect(Date.now() - timedOut).toBeGreaterThanOrEqual(25);
  });

  it('holds nothing for a request released while it waited', () => {
    const { budget: admissions } = budget();
    const gone = admissions.open('alice');
    gone.release();
    expect(gone.growTo(MiB)).toBeUndefined();
    expect(admissions.inFlight).toBe(0);
  });

  it('counts refused bytes once, when the caller gives up', () => {
    const { budget: admissions, observer } = budget();
    admissions.open('alice').growTo(32 * MiB);
    const refused = admissions.open('alice');
    expect(refused.growTo(2 * MiB)).toBe(PRINCIPAL_LIMIT);
    expect(refused.growTo(2 * MiB)).toBe(PRINCIPAL_LIMIT);
    expect(observer.refused).toBe(0);
    admissions.refused(2 * MiB);
    expect(observer.refused).toBe(2 * MiB);
  });
});

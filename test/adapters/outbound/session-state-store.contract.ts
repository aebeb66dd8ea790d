import type { SessionLimits } from '../../../src/config/app-config.js';
import type { SessionStateStore } from '../../../src/adapters/shared/session-state-store.port.js';

/**
 * One behaviour for every session store: the in-memory one and Redis run the same cases, so the
 * single-process default cannot drift from what replicas get. Idle expiry uses real time with a
 * 300 ms timeout (Redis expires keys on its own clock).
 */
export const CONTRACT_IDLE_MS = 300;
const LIMITS: SessionLimits = { idleTimeoutMs: CONTRACT_IDLE_MS, max: 3, maxPerPrincipal: 2 };
const fingerprint = { size: 5, modifiedAtMs: 1234, sha256: 'ab'.repeat(32) };
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

export function sessionStateStoreContract(make: (limits: SessionLimits) => Promise<SessionStateStore>): void {
  let store: SessionStateStore;
  beforeEach(async () => {
    store = await make(LIMITS);
  });
  afterEach(async () => {
    await store.disconnect();
  });

  it('keeps the working directory and view records per session', async () => {
    await store.open('s1', 'alice');
    await store.open('s2', 'alice');
    await store.setWorkingDirectory('s1', '/workspace/src');
    await store.recordFingerprint('s1', '/workspace/a.txt', fingerprint);
    expect(await store.workingDirectory('s1')).toBe('/workspace/src');
    expect(await store.fingerprint('s1', '/workspace/a.txt')).toEqual(fingerprint);
    expect(await store.workingDirectory('s2')).toBeUndefined();
    expect(await store.fingerprint('s2', '/workspace/a.txt')).toBeUndefined();
  });

  it('knows the principal of an open session and nothing of an unknown one', async () => {
    expect(await store.open('s1', 'alice')).toBe('opened');
    expect(await store.touch('s1')).toEqual({ principal: 'alice' });
    expect(await store.touch('nobody')).toBeUndefined();
  });

  it('caps sessions overall and per principal, storing nothing for a refused one', async () => {
    expect(await store.open('a1', 'alice')).toBe('opened');
    expect(await store.open('a2', 'alice')).toBe('opened');
    expect(await store.open('a3', 'alice')).toBe('too-many-for-principal');
    expect(await store.open('b1', 'bob')).toBe('opened');
    expect(await store.open('c1', 'carol')).toBe('too-many-sessions');
    expect(await store.touch('a3')).toBeUndefined();
    expect(await store.touch('c1')).toBeUndefined();
  });

  it('close drops every piece of the session and frees its place', async () => {
    await store.open('a1', 'alice');
    await store.open('a2', 'alice');
    await store.setWorkingDirectory('a1', '/workspace/src');
    await store.recordFingerprint('a1', '/workspace/a.txt', fingerprint);
    await store.close('a1');
    expect(await store.touch('a1')).toBeUndefined();
    expect(await store.workingDirectory('a1')).toBeUndefined();
    expect(await store.fingerprint('a1', '/workspace/a.txt')).toBeUndefined();
    expect(await store.open('a3', 'alice')).toBe('opened');
  });

  it('a session idle past the timeout is gone with its state and its place; activity keeps it', async () => {
    await store.open('a1', 'alice');
    await store.open('a2', 'alice');
    await store.setWorkingDirectory('a1', '/workspace/src');
    await store.recordFingerprint('a1', '/workspace/a.txt', fingerprint);
    await pause(CONTRACT_IDLE_MS / 2);
    expect(await store.touch('a1')).toEqual({ principal: 'alice' });
    await pause(CONTRACT_IDLE_MS / 2 + 50);
    // a1 was touched 200 ms ago; a2 has been idle 350 ms.
    expect(await store.touch('a1')).toEqual({ principal: 'alice' });
    expect(await store.touch('a2')).toBeUndefined();
    expect(await store.open('a3', 'alice')).toBe('opened');

    await pause(CONTRACT_IDLE_MS + 50);
    await store.sweep();
    expect(await store.touch('a1')).toBeUndefined();
    expect(await store.workingDirectory('a1')).toBeUndefined();
    expect(await store.fingerprint('a1', '/workspace/a.txt')).toBeUndefined();
  });

  it('is reachable', () => {
    expect(store.reachable()).toBe(true);
  });
}

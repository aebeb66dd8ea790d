import { InMemorySessionState, MAX_FILES_PER_SESSION } from '../../../src/adapters/outbound/in-memory-session-state.js';

const fingerprint = { size: 1, modifiedAtMs: 1 };

describe('InMemorySessionState', () => {
  it('keeps working directories and fingerprints per session', async () => {
    const store = new InMemorySessionState();
    await store.setWorkingDirectory('s1', '/workspace/src');
    await store.recordFingerprint('s1', '/workspace/a.txt', fingerprint);
    expect(await store.workingDirectory('s1')).toBe('/workspace/src');
    expect(await store.fingerprint('s1', '/workspace/a.txt')).toEqual(fingerprint);
    expect(await store.workingDirectory('s2')).toBeUndefined();
    expect(await store.fingerprint('s2', '/workspace/a.txt')).toBeUndefined();
  });

  it('drops everything about a session when it ends', async () => {
    const store = new InMemorySessionState();
    await store.setWorkingDirectory('s1', '/workspace/src');
    await store.recordFingerprint('s1', '/workspace/a.txt', fingerprint);
    await store.recordFingerprint('s2', '/workspace/a.txt', fingerprint);
    await store.close('s1');
    expect(await store.workingDirectory('s1')).toBeUndefined();
    expect(await store.fingerprint('s1', '/workspace/a.txt')).toBeUndefined();
    expect(await store.fingerprint('s2', '/workspace/a.txt')).toEqual(fingerprint);
    expect(store.sessionCount).toBe(1);
  });

  it('forgets the least recently seen file beyond the per-session cap', async () => {
    const store = new InMemorySessionState();
    for (let i = 0; i < MAX_FILES_PER_SESSION; i += 1) await store.recordFingerprint('s1', `/workspace/${i}`, fingerprint);
    await store.recordFingerprint('s1', '/workspace/0', fingerprint);
    await store.recordFingerprint('s1', '/workspace/new', fingerprint);
    expect(await store.fingerprint('s1', '/workspace/1')).toBeUndefined();
    expect(await store.fingerprint('s1', '/workspace/0')).toEqual(fingerprint);
    expect(await store.fingerprint('s1', '/workspace/new')).toEqual(fingerprint);
  });
});

describe('InMemorySessionState: session lifecycle', () => {
  const clock = { ms: 0, now: () => new Date(clock.ms) };
  const limits = { idleTimeoutMs: 100, max: 3, maxPerPrincipal: 2 };

  it('caps open sessions overall and per principal, storing nothing for a refused one', async () => {
    const store = new InMemorySessionState(limits, clock);
    expect(await store.open('a1', 'alice')).toBe('opened');
    expect(await store.open('a2', 'alice')).toBe('opened');
    expect(await store.open('a3', 'alice')).toBe('too-many-for-principal');
    expect(await store.open('b1', 'bob')).toBe('opened');
    expect(await store.open('c1', 'carol')).toBe('too-many-sessions');
    expect(store.sessionCount).toBe(3);
    expect(await store.touch('a3')).toBeUndefined();
    await store.close('a1');
    expect(await store.open('c1', 'carol')).toBe('opened');
  });

  it('an expired session frees its place under the caps', async () => {
    const store = new InMemorySessionState(limits, clock);
    await store.open('a1', 'alice');
    await store.open('a2', 'alice');
    clock.ms += 100;
    expect(await store.open('a3', 'alice')).toBe('opened');
    expect(await store.touch('a1')).toBeUndefined();
    expect(await store.touch('a3')).toEqual({ principal: 'alice' });
  });
});

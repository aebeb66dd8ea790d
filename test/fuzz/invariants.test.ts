import { DomainError } from '../../src/domain/errors.js';
import { clientText, expandArgs, leakIn, normalise, outcomeOf, snapshotDifferences } from './invariants.js';
import { CANARY, type Hosts } from './worlds.js';

/** The fuzzer's own checks: each must see what it is there to see, or a clean run proves nothing. */
const hosts: Hosts = { base: '/tmp/mcp-fuzz-AbC123', root: '/tmp/mcp-fuzz-AbC123/root', outside: '/tmp/mcp-fuzz-AbC123/outside', journal: '/tmp/mcp-fuzz-journal-XyZ789' };

describe('fuzzer invariants', () => {
  it('leakIn: flags canary content, a host path (with or without its leading slash) and a stack trace', () => {
    expect(leakIn(`{"content":"${CANARY} outside"}`, hosts, {})).toBe('canary content');
    expect(leakIn('NOT_FOUND: /tmp/mcp-fuzz-AbC123/root/a', hosts, {})).toBe('host path');
    expect(leakIn('{"file":"tmp/mcp-fuzz-AbC123/outside/x"}', hosts, {})).toBe('host path');
    expect(leakIn('TypeError: x\n    at walk (/src/a.js:1:2)', hosts, {})).toBe('stack trace');
    expect(leakIn('{"path":"a/b.txt","content":"alpha"}', hosts, {})).toBeNull();
  });

  it('leakIn: lets an argument that is a host path come back, as sent or resolved, and nothing more', () => {
    const args = { root: 'workspace', path: '/tmp/mcp-fuzz-AbC123/root/../outside//canary.txt' };
    expect(leakIn(`ACCESS_DENIED: ${args.path} is outside the root`, hosts, args)).toBeNull();
    expect(leakIn('NOT_FOUND: /workspace/tmp/mcp-fuzz-AbC123/outside/canary.txt', hosts, args)).toBeNull();
    expect(leakIn(`ACCESS_DENIED: ${args.path} resolves to /tmp/mcp-fuzz-AbC123/root-evil/x`, hosts, args)).toBe('host path');
  });

  it('clientText: an error is what the client sees (CODE: message), never its log-only details', () => {
    const error = new DomainError('ACCESS_DENIED', 'path escapes: /workspace/a', { resolvedPath: '/tmp/mcp-fuzz-AbC123/outside' });
    expect(clientText({ status: 'rejected', reason: error })).toBe('ACCESS_DENIED: path escapes: /workspace/a');
    expect(outcomeOf({ status: 'rejected', reason: error })).toEqual({ error: 'ACCESS_DENIED' });
    expect(outcomeOf({ status: 'rejected', reason: new TypeError('boom') })).toHaveProperty('crash');
  });

  it('normalise: replaces times, owners and directory sizes only', () => {
    const result = {
      entries: [
        { name: 'd', type: 'directory', size: 12288, modified: '2026-11-26T05:00:00.000Z', owner: 'root', uid: 0 },
        { name: 'f', type: 'file', size: 7, modified: new Date(0), permissions: '0644' },
      ],
      stat: { is_directory: true, size: 4096 },
    };
    expect(normalise(result)).toEqual({
      entries: [
        { name: 'd', type: 'directory', size: '<directory size>', modified: '<time>', owner: '<owner>', uid: '<owner>' },
        { name: 'f', type: 'file', size: 7, modified: '<time>', permissions: '0644' },
      ],
      stat: { is_directory: true, size: '<directory size>' },
    });
  });

  it('expandArgs: fills in host paths and the tree paths a call picked', () => {
    expect(expandArgs({ path: '$PICK4/x', other: '$OUT/canary.txt', n: 3 }, hosts, ['a', 'b', 'c'])).toEqual({
      path: 'b/x',
      other: '/tmp/mcp-fuzz-AbC123/outside/canary.txt',
      n: 3,
    });
  });

  it('snapshotDifferences: names every entry that differs, is missing or is extra', () => {
    const model = new Map([['a', 'file 644 x'], ['b', 'dir 755']]);
    const disk = new Map([['a', 'file 644 y'], ['c', 'link ../a']]);
    expect(snapshotDifferences(model, disk)).toHaveLength(3);
    expect(snapshotDifferences(model, new Map(model))).toEqual([]);
  });
});

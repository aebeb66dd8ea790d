import { DomainError } from '../../src/domain/errors.js';
import { changeOrdinals, clientText, expandArgs, expandChanges, leakIn, normalise, outcomeOf, snapshotDifferences } from './invariants.js';
import { journalDifference, journalLitter, undidEverything } from './journal-invariants.js';
import { SINCE_THE_START } from './journal.js';
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

  it('leakIn: flags the journal directory\'s host path, unless the caller sent it', () => {
    expect(leakIn('NOT_FOUND: /tmp/mcp-fuzz-journal-XyZ789/records/x.img', hosts, {})).toBe('the journal directory');
    expect(leakIn('{"path":"tmp/mcp-fuzz-journal-XyZ789/records"}', hosts, {})).toBe('the journal directory');
    const args = { selector: { root: 'workspace', path: '/tmp/mcp-fuzz-journal-XyZ789/records' } };
    expect(leakIn('NOT_FOUND: /workspace/tmp/mcp-fuzz-journal-XyZ789/records', hosts, args)).toBeNull();
  });

  it('normalise: puts each change id, as a field or inside a text, at its ordinal position in its own journal', () => {
    const model = changeOrdinals(['00mjv8k0000000abc', '00mjv8k0000010abc']);
    const disk = changeOrdinals(['00mjv8k000000wxyz', '00mjv8k000001wxyz']);
    const bogus = 'zzzzzzzzzzzzzzzzz';
    const shown = (ids: readonly string[]) => ({ results: [{ id: ids[1], outcome: 'restored' }, { id: bogus, outcome: 'not_undoable', reason: `see ${ids[0]}` }] });
    expect(normalise(shown([...model.keys()]), model)).toEqual(normalise(shown([...disk.keys()]), disk));
    expect(normalise(shown([...model.keys()]), model)).toEqual({
      results: [{ id: '<change 1>', outcome: 'restored' }, { id: bogus, outcome: 'not_undoable', reason: 'see <change 0>' }],
    });
    // Without the map, the same change differs: the normalising is what makes them comparable, not a coincidence.
    expect(normalise(shown([...model.keys()]))).not.toEqual(normalise(shown([...disk.keys()])));
  });

  it('expandChanges: $CHANGE<n> is the n-th newest change of that world\'s journal, anywhere in the arguments', () => {
    const ids = ['00mjv8k0000000abc', '00mjv8k0000010abc', '00mjv8k0000020abc'];
    expect(expandChanges({ selector: { ids: ['$CHANGE0', '$CHANGE4', 'nope'] }, since_id: '$CHANGE1' }, ids)).toEqual({
      selector: { ids: [ids[2], ids[1], 'nope'] },
      since_id: ids[1],
    });
    expect(expandChanges({ since_id: '$CHANGE0' }, [])).toEqual({ since_id: 'zzzzzzzzzzzzzzzzz' });
  });

  it('journalDifference: names the first change the two journals disagree on', () => {
    const a = [{ op: 'create', path: 'a' }, { op: 'modify', path: 'a' }];
    expect(journalDifference(a, JSON.parse(JSON.stringify(a)) as unknown[])).toBeNull();
    expect(journalDifference(a, [a[0], { op: 'modify', path: 'b' }])).toMatch(/^change 1:/);
    expect(journalDifference(a, [a[0]])).toMatch(/^change 1:[\s\S]*node: {2}null/);
  });

  it('journalLitter: finds the disk journal\'s file names anywhere in the root, and nothing else', () => {
    const root = new Map([
      ['notes.txt', 'file 644 x'],
      ['sub/00mjv8k0000000abc.img', 'file 600 y'],
      ['records', 'dir 700'],
      ['.00mjv8k0000000abc.tmp', 'file 600 z'],
      ['LLLLLLLLLLLLLLLLL', 'file 644 w'],
    ]);
    expect(journalLitter(root)).toEqual(['sub/00mjv8k0000000abc.img', 'records', '.00mjv8k0000000abc.tmp']);
  });

  it('undidEverything: only a forced, real undo of every change since the start in which every change came back', () => {
    const everything = { selector: { since_id: SINCE_THE_START, force: true } };
    const restored: PromiseSettledResult<unknown> = { status: 'fulfilled', value: { results: [{ outcome: 'restored' }] } };
    expect(undidEverything('undo_changes', everything, restored)).toBe(true);
    expect(undidEverything('undo_changes', { ...everything, dry_run: true }, restored)).toBe(false);
    expect(undidEverything('undo_changes', { selector: { since_id: SINCE_THE_START }, force: false }, restored)).toBe(false);
    expect(undidEverything('undo_changes', { selector: { since_id: SINCE_THE_START }, force: true }, restored)).toBe(true);
    expect(undidEverything('undo_changes', { selector: { since_id: '00mjv8k0000000abc', force: true } }, restored)).toBe(false);
    const partly: PromiseSettledResult<unknown> = { status: 'fulfilled', value: { results: [{ outcome: 'restored' }, { outcome: 'not_undoable' }] } };
    expect(undidEverything('undo_changes', everything, partly)).toBe(false);
    expect(undidEverything('undo_changes', everything, { status: 'rejected', reason: new Error('x') })).toBe(false);
  });
});

import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import type { ConfirmationAnswer } from '../../../src/domain/ports/confirmation.port.js';
import { ScriptedConfirmation } from './scripted-confirmation.js';
import { domainError } from '../../support/domain.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';
const BIG = '0123456789';
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString());

/** Every entry under /ws with its kind and a file's text, for comparing before and after. */
function snapshot(tree: InMemoryFileSystem, dir = '/ws'): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of tree.list(dir)) {
    const path = `${dir}/${name}`;
    const kind = tree.kindOf(path) ?? 'none';
    entries[path] = kind === 'file' ? `file:${text(tree.readBytes(path))}` : kind;
    if (kind === 'directory') Object.assign(entries, snapshot(tree, path));
  }
  return entries;
}

/** journal.max_file_bytes is 8 bytes: BIG (10 bytes) is past it. */
function world(answer: ConfirmationAnswer) {
  const confirmation = new ScriptedConfirmation(answer);
  const built = journalWorld({ maxFileBytes: 8, maxBytes: 1000 }, new InMemoryFileSystem(), [], confirmation);
  built.tree.seedFile('/ws/big.txt', BIG);
  built.tree.seedFile('/ws/small.txt', 'small');
  built.tree.seedSymlink('/ws/link', 'small.txt');
  built.tree.seedFile('/ws/tree/a.txt', 'aaaaaa');
  built.tree.seedFile('/ws/tree/b.txt', 'bbbbbb');
  return { ...built, confirmation };
}

describe('asking before what cannot be taken back (issue 30.3)', () => {
  it('never asks about a change the journal can undo', async () => {
    const w = world('declined');
    await w.writeFile.execute({ root: W, path: 'small.txt', content: 'other' });
    await w.writeFile.execute({ root: W, path: 'new.txt', content: BIG });
    await w.removeFile.execute({ root: W, path: 'small.txt' });
    await w.createFolder.execute({ root: W, path: 'made' });
    await w.move.execute({ source_root: W, source_path: 'new.txt', dest_root: W, dest_path: 'moved.txt' });
    expect(w.confirmation.questions).toEqual([]);
    expect(text(w.tree.readBytes('/ws/moved.txt'))).toBe(BIG);
  });

  it.each([
    ['write_file over a file past max_file_bytes', (w: ReturnType<typeof world>) => w.writeFile.execute({ root: W, path: 'big.txt', content: 'x' }), 'big.txt', 'larger than the journal keeps (10 bytes > journal.max_file_bytes 8)'],
    ['an append to it', (w: ReturnType<typeof world>) => w.writeFile.execute({ root: W, path: 'big.txt', content: 'x', mode: 'append' }), 'big.txt', 'larger than the journal keeps'],
    ['remove_file of it', (w: ReturnType<typeof world>) => w.removeFile.execute({ root: W, path: 'big.txt' }), 'big.txt', 'larger than the journal keeps'],
    ['remove_file of a link', (w: ReturnType<typeof world>) => w.removeFile.execute({ root: W, path: 'link' }), 'link', 'a symbolic link cannot be recreated by an undo'],
    ['remove_folder of a tree past the limits', (w: ReturnType<typeof world>) => w.removeFolder.execute({ root: W, path: 'tree' }), 'tree', 'the folder was larger than the journal keeps (12 bytes'],
    ['move onto it', (w: ReturnType<typeof world>) => w.move.execute({ source_root: W, source_path: 'small.txt', dest_root: W, dest_path: 'big.txt' }), 'big.txt', 'larger than the journal keeps'],
    ['copy onto it', (w: ReturnType<typeof world>) => w.copy.execute({ source_root: W, source_path: 'small.txt', dest_root: W, dest_path: 'big.txt' }), 'big.txt', 'larger than the journal keeps'],
  ])('%s: asks, naming root, path and why; declined, nothing changes and the call answers DECLINED', async (_name, run, path, why) => {
    const w = world('declined');
    const before = snapshot(w.tree);
    const error = await domainError(run(w));
    expect(error.code).toBe('DECLINED');
    expect(error.message).toContain(`the person declined it: ${path} (root: workspace) could not be undone, since `);
    expect(error.message).toContain(why);
    expect(w.confirmation.questions).toEqual([expect.objectContaining({ root: W, path, reason: expect.stringContaining(why) })]);
    expect(snapshot(w.tree)).toEqual(before);
    expect(await w.journal.list({})).toEqual([]);
  });

  it.each([
    ['cancelled', 'the person cancelled the question'],
    ['timed_out', 'nobody answered the question in time (confirm.timeout_s)'],
  ] as const)('%s: nothing changes, DECLINED says why', async (answer, why) => {
    const w = world(answer);
    const error = await domainError(w.writeFile.execute({ root: W, path: 'big.txt', content: 'x' }));
    expect(error.toClientText()).toMatch(new RegExp(`^DECLINED: the change was not made, ${why.replace(/[()]/g, '\\$&')}: big\\.txt \\(root: workspace\\)`));
    expect(text(w.tree.readBytes('/ws/big.txt'))).toBe(BIG);
  });

  it.each(['accepted', 'unavailable'] as const)('%s: the change is made, recorded not undoable, as without asking', async (answer) => {
    const w = world(answer);
    await w.writeFile.execute({ root: W, path: 'big.txt', content: 'x' });
    expect(text(w.tree.readBytes('/ws/big.txt'))).toBe('x');
    expect(w.confirmation.questions).toHaveLength(1);
    expect((await w.journal.list({}))[0]).toMatchObject({ op: 'modify', undoable: false });
  });

  it('a tree copy asks once for the group, counting the others; declined, nothing is placed', async () => {
    const w = world('declined');
    w.tree.seedFile('/ws/src/a.txt', 'new');
    w.tree.seedFile('/ws/src/b.txt', 'new');
    w.tree.seedFile('/ws/src/c.txt', 'new');
    w.tree.seedFile('/ws/dst/src/a.txt', BIG);
    w.tree.seedFile('/ws/dst/src/b.txt', BIG);
    const before = snapshot(w.tree);
    const error = await domainError(w.copy.execute({ source_root: W, source_path: 'src', dest_root: W, dest_path: 'dst' }));
    expect(error.code).toBe('DECLINED');
    expect(error.message).toContain('(and 1 more changes like it)');
    expect(w.confirmation.questions).toHaveLength(1);
    expect(w.confirmation.questions[0]).toMatchObject({ root: W, more: 1 });
    expect(snapshot(w.tree)).toEqual(before);
    expect(await w.journal.list({})).toEqual([]);
  });
});

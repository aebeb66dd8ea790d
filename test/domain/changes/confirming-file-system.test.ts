import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { ConfirmingFileSystem } from '../../../src/domain/changes/confirming-file-system.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import type { ConfirmationAnswer } from '../../../src/domain/ports/confirmation.port.js';
import { UNRESTRICTED_PRINCIPAL } from '../../../src/domain/principal.js';
import { Copy } from '../../../src/domain/tools/copy.js';
import { CreateFolder } from '../../../src/domain/tools/create-folder.js';
import { Move } from '../../../src/domain/tools/move.js';
import { RemoveFile } from '../../../src/domain/tools/remove-file.js';
import { RemoveFolder } from '../../../src/domain/tools/remove-folder.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { WriteFile } from '../../../src/domain/tools/write-file.js';
import { domainError, TEST_SETTINGS } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { ScriptedConfirmation } from './scripted-confirmation.js';
import { TOOLS, toolPolicy } from '../../support/tools.js';

const W = 'workspace';
const JOURNAL_OFF = 'the change journal is off';

/** Counts the lookups made through it, to show a call that cannot ask costs none. */
class CountingFileSystem extends InMemoryFileSystem {
  stats = 0;
  override stat(...args: Parameters<InMemoryFileSystem['stat']>): ReturnType<InMemoryFileSystem['stat']> {
    this.stats += 1;
    return super.stat(...args);
  }
}

/** The journal off (journal.enabled false): the tools over the confirming file system on an in-memory tree. */
function world(answer: ConfirmationAnswer, askable = true) {
  const tree = new CountingFileSystem();
  tree.seedDirectory('/ws');
  tree.seedFile('/ws/old.txt', 'old');
  tree.seedFile('/ws/other.txt', 'other');
  tree.seedSymlink('/ws/link', 'old.txt');
  tree.seedFile('/ws/tree/a.txt', 'a');
  tree.seedFile('/ws/src/a.txt', 'new a');
  tree.seedFile('/ws/src/b.txt', 'new b');
  tree.seedFile('/ws/dst/src/a.txt', 'old a');
  tree.seedFile('/ws/dst/src/b.txt', 'old b');
  const confirmation = new ScriptedConfirmation(answer, askable);
  const fs = new ConfirmingFileSystem(tree, confirmation);
  const access = new RootAccess(new PathPolicy([makeRoot(W, '/ws')], { principals: { current: () => UNRESTRICTED_PRINCIPAL }, tools: TOOLS }), toolPolicy());
  return {
    tree,
    confirmation,
    writeFile: new WriteFile(access, fs, TEST_SETTINGS),
    removeFile: new RemoveFile(access, fs),
    removeFolder: new RemoveFolder(access, fs),
    createFolder: new CreateFolder(access, fs),
    copy: new Copy(fs, access),
    move: new Move(fs, access),
  };
}
type World = ReturnType<typeof world>;
const text = (w: World, path: string) => (w.tree.kindOf(path) === 'file' ? Buffer.from(w.tree.readBytes(path) ?? []).toString() : w.tree.kindOf(path));

describe('asking with the change journal off (issue 30.3)', () => {
  it.each([
    ['write_file over a file', (w: World) => w.writeFile.execute({ root: W, path: 'old.txt', content: 'x' }), 'old.txt', '/ws/old.txt'],
    ['remove_file', (w: World) => w.removeFile.execute({ root: W, path: 'old.txt' }), 'old.txt', '/ws/old.txt'],
    ['remove_file of a link', (w: World) => w.removeFile.execute({ root: W, path: 'link' }), 'link', '/ws/link'],
    ['remove_folder', (w: World) => w.removeFolder.execute({ root: W, path: 'tree'}), 'tree', '/ws/tree/a.txt'],
    ['move onto a file', (w: World) => w.move.execute({ source_root: W, source_path: 'other.txt', dest_root: W, dest_path: 'old.txt'}), 'old.txt', '/ws/old.txt'],
    ['copy onto a file', (w: World) => w.copy.execute({ source_root: W, source_path: 'other.txt', dest_root: W, dest_path: 'old.txt'}), 'old.txt', '/ws/old.txt'],
  ])('%s: asks, naming root, path and "the change journal is off"; declined, DECLINED and nothing changes', async (_name, run, path, watched) => {
    const w = world('declined');
    const before = text(w, watched);
    const error = await domainError(run(w));
    expect(error.code).toBe('DECLINED');
    expect(error.toClientText()).toBe(`DECLINED: the change was not made, the person declined it: ${path} (root: workspace) could not be undone, since ${JOURNAL_OFF}`);
    expect(w.confirmation.questions).toEqual([{ root: W, path, reason: JOURNAL_OFF, wholeCall: true }]);
    expect(text(w, watched)).toBe(before);
  });

  it('accepted: the change is made', async () => {
    const w = world('accepted');
    await w.writeFile.execute({ root: W, path: 'old.txt', content: 'x' });
    expect(text(w, '/ws/old.txt')).toBe('x');
    expect(w.confirmation.questions).toHaveLength(1);
  });

  it('a tree copy merged over existing files asks once, counting the others; declined, nothing is copied', async () => {
    const w = world('declined');
    const error = await domainError(w.copy.execute({ source_root: W, source_path: 'src', dest_root: W, dest_path: 'dst'}));
    expect(error.code).toBe('DECLINED');
    expect(w.confirmation.questions).toEqual([{ root: W, path: 'dst/src/a.txt', reason: JOURNAL_OFF, wholeCall: true, more: 1 }]);
    expect([text(w, '/ws/dst/src/a.txt'), text(w, '/ws/dst/src/b.txt')]).toEqual(['old a', 'old b']);
  });

  it('loses nothing, so never asks: a new file, an append, a new folder, a move or copy to a free name', async () => {
    const w = world('declined');
    await w.writeFile.execute({ root: W, path: 'new.txt', content: 'new' });
    await w.writeFile.execute({ root: W, path: 'old.txt', content: '+', mode: 'append' });
    await w.createFolder.execute({ root: W, path: 'made' });
    await w.move.execute({ source_root: W, source_path: 'new.txt', dest_root: W, dest_path: 'moved.txt' });
    await w.copy.execute({ source_root: W, source_path: 'moved.txt', dest_root: W, dest_path: 'copied.txt' });
    expect(w.confirmation.questions).toEqual([]);
    expect([text(w, '/ws/old.txt'), text(w, '/ws/copied.txt')]).toEqual(['old+', 'new']);
  });

  it('a call with nobody to ask: no question and no extra lookup, the change is made as today', async () => {
    const asking = world('declined', true);
    await domainError(asking.removeFile.execute({ root: W, path: 'old.txt' }));
    const silent = world('declined', false);
    await silent.removeFile.execute({ root: W, path: 'old.txt' });
    expect(silent.confirmation.questions).toEqual([]);
    expect(silent.tree.kindOf('/ws/old.txt')).toBeUndefined();
    // The asking call looked once more (the confirming layer's own stat) than the silent one.
    expect(asking.tree.stats - silent.tree.stats).toBe(1);
  });
});

import { InMemoryChangeJournal } from '../../../src/adapters/outbound/journal/in-memory-change-journal.js';
import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';
import { ChangeContents } from '../../../src/domain/changes/change-contents.js';
import { JournalingFileSystem } from '../../../src/domain/changes/journaling-file-system.js';
import type { JournalLimits } from '../../../src/domain/changes/journal-bounds.js';
import { ListChanges } from '../../../src/domain/changes/list-changes.js';
import { Restorer } from '../../../src/domain/changes/restorer.js';
import { Snapshots } from '../../../src/domain/changes/snapshots.js';
import { UndoChanges } from '../../../src/domain/changes/undo-changes.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import type { Root } from '../../../src/domain/roots.js';
import type { ChangeAuthor, ChangeJournal, UndoReach } from '../../../src/domain/ports/change-journal.port.js';
import type { Confirmation } from '../../../src/domain/ports/confirmation.port.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../src/domain/principal.js';
import { Copy } from '../../../src/domain/tools/copy.js';
import { CreateFolder } from '../../../src/domain/tools/create-folder.js';
import { Move } from '../../../src/domain/tools/move.js';
import { RemoveFile } from '../../../src/domain/tools/remove-file.js';
import { RemoveFolder } from '../../../src/domain/tools/remove-folder.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { WriteFile } from '../../../src/domain/tools/write-file.js';
import { PatchFile } from '../../../src/domain/tools/patch-file.js';
import { TEST_SETTINGS } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { ManualClock } from '../../adapters/outbound/journal/change-journal.contract.js';
import { TOOLS, toolPolicy } from '../../support/tools.js';

/**
 * The journal on an in-memory tree, with no disk: root 'workspace' at /ws (every tool), root
 * 'noundo' at /nu (everything but undo_changes), the journaling file system in front of the tree,
 * and the file tools and the journal's use cases over it. `as(principal, session, tool)` sets who
 * the next calls are, as the MCP adapter does per call. `tree` may be a subclass that records calls;
 * `extraRoots` are served after those two, their folders made; `confirmation` is asked before what cannot be undone.
 */
export function journalWorld<Tree extends InMemoryFileSystem = InMemoryFileSystem>(limits: Partial<JournalLimits> = {}, tree: Tree = new InMemoryFileSystem() as Tree, extraRoots: readonly Root[] = [], confirmation?: Confirmation) {
  const clock = new ManualClock();
  tree.seedDirectory('/ws');
  tree.seedDirectory('/nu');
  for (const root of extraRoots) tree.seedDirectory(root.hostPath);
  const journal = new InMemoryChangeJournal(clock);
  let principal: Principal = UNRESTRICTED_PRINCIPAL;
  // As the MCP adapter names a call: the local operator's session s1 until as() says otherwise.
  let author: ChangeAuthor | undefined = { principal: UNRESTRICTED_PRINCIPAL.name, session: 's1', tool: 'write_file' };
  const principals = { current: () => principal };
  const noUndo = makeRoot('noundo', '/nu', ['write_file', 'read_file']);
  const paths = new PathPolicy([makeRoot('workspace', '/ws'), noUndo, ...extraRoots], { principals, tools: TOOLS });
  const tools = toolPolicy();
  const access = new RootAccess(paths, tools);
  const hasher = new NodeContentHasher();
  const full: JournalLimits = { maxBytes: 1024 * 1024, maxFileBytes: 64 * 1024, retentionMs: 3_600_000, ...limits };
  const snapshots = new Snapshots(tree, hasher, full.maxFileBytes);
  const outcomes: string[] = [];
  const reaches: UndoReach[] = [];
  const observer = { journalUsage: () => undefined, journalEvicted: () => undefined, undoOutcome: (outcome: string) => outcomes.push(outcome) };
  const fs = new JournalingFileSystem(tree, journal, snapshots, { current: () => author, committed: (_author, reach) => reaches.push(reach) }, clock, full, observer, confirmation);
  const contents = new ChangeContents(journal, paths, fs, snapshots);
  return {
    clock,
    tree,
    journal,
    fs,
    paths,
    outcomes,
    /** How far an undo reaches, for every change made in a call, in order. */
    reaches,
    /** undo_changes over another journal or file system (a crash test's, say). */
    undoVia: (store: ChangeJournal, files: FileSystemPort) => new UndoChanges(store, paths, tools, principals, contents, snapshots, new Restorer(files), TEST_SETTINGS, observer),
    as(name: Principal | string, session = 's1', tool = 'write_file') {
      principal = typeof name === 'string' ? { name, readOnly: false } : name;
      author = { principal: principal.name, session, tool };
    },
    writeFile: new WriteFile(access, fs, TEST_SETTINGS),
    patchFile: new PatchFile(access, fs, TEST_SETTINGS),
    removeFile: new RemoveFile(access, fs),
    removeFolder: new RemoveFolder(access, fs),
    createFolder: new CreateFolder(access, fs),
    copy: new Copy(fs, access),
    move: new Move(fs, access),
    listChanges: new ListChanges(journal, paths, principals, contents, TEST_SETTINGS, snapshots),
    undoChanges: new UndoChanges(journal, paths, tools, principals, contents, snapshots, new Restorer(fs), TEST_SETTINGS, observer),
  };
}

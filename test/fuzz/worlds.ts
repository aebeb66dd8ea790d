import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { InMemorySessionState } from '../../src/adapters/outbound/in-memory-session-state.js';
import { NodeContentHasher } from '../../src/adapters/outbound/node-content-hasher.js';
import { NodeFileSystem, type NodeFileSystemOptions } from '../../src/adapters/outbound/node-file-system.js';
import { Re2RegexEngine } from '../../src/adapters/outbound/re2-regex-engine.js';
import { ChangeContents } from '../../src/domain/changes/change-contents.js';
import type { JournalLimits } from '../../src/domain/changes/journal-bounds.js';
import { ListChanges } from '../../src/domain/changes/list-changes.js';
import { Restorer } from '../../src/domain/changes/restorer.js';
import { UndoChanges } from '../../src/domain/changes/undo-changes.js';
import { EditSessions } from '../../src/domain/edit-session.js';
import { Namespace } from '../../src/domain/namespace.js';
import { PathPolicy } from '../../src/domain/path-policy.js';
import type { Clock } from '../../src/domain/ports/clock.port.js';
import type { ChangeJournal } from '../../src/domain/ports/change-journal.port.js';
import type { FileSystemPort } from '../../src/domain/ports/file-system.port.js';
import { UNRESTRICTED_PRINCIPAL } from '../../src/domain/principal.js';
import type { Settings } from '../../src/domain/settings.js';
import { ChangeDirectory } from '../../src/domain/tools/change-directory.js';
import { Copy } from '../../src/domain/tools/copy.js';
import { CreateFile } from '../../src/domain/tools/create-file.js';
import { CreateFolder } from '../../src/domain/tools/create-folder.js';
import { FileList } from '../../src/domain/tools/file-list.js';
import { FileRead } from '../../src/domain/tools/file-read.js';
import { FileWrite } from '../../src/domain/tools/file-write.js';
import { Glob } from '../../src/domain/tools/glob.js';
import { Grep } from '../../src/domain/tools/grep.js';
import { IgnoreRuleCache } from '../../src/domain/search/ignore-rule-cache.js';
import { SearchIndexes } from '../../src/domain/search/search-indexes.js';
import { HashFile } from '../../src/domain/tools/hash-file.js';
import { ListFolder } from '../../src/domain/tools/list-folder.js';
import { ListRoots } from '../../src/domain/tools/list-roots.js';
import { Move } from '../../src/domain/tools/move.js';
import { PatchFile } from '../../src/domain/tools/patch-file.js';
import { PermissionsFile } from '../../src/domain/tools/permissions-file.js';
import { ReadFile } from '../../src/domain/tools/read-file.js';
import { ReadFiles } from '../../src/domain/tools/read-files.js';
import { ReadResource } from '../../src/domain/tools/read-resource.js';
import { RemoveFile } from '../../src/domain/tools/remove-file.js';
import { RemoveFolder } from '../../src/domain/tools/remove-folder.js';
import { RootAccess } from '../../src/domain/tools/root-access.js';
import { StatFile } from '../../src/domain/tools/stat-file.js';
import { StrReplace } from '../../src/domain/tools/str-replace.js';
import { View } from '../../src/domain/tools/view.js';
import { WriteFile } from '../../src/domain/tools/write-file.js';
import { TEST_SETTINGS } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';
import { journalOn, makeJournalDir, removeJournalDir, SCRATCH_PARENT } from './journal.js';
import { allEntries, type TreeSpec } from './trees.js';
import { TOOLS, toolPolicy } from '../support/tools.js';

/** Canary content: it lives only outside the root, so seeing it in any result is an escape. */
export const CANARY = 'C4N4RY-0e1f';
/** The outside tree: files full of canaries, a link back into the root, a look-alike sibling of the root. */
const OUTSIDE_FILES: Readonly<Record<string, string>> = {
  'outside/canary.txt': `${CANARY} outside\nneedle ${CANARY}\n`,
  'outside/sub/deep.txt': `${CANARY} deep\n`,
  'outside/notes.txt': `${CANARY} same name as an in-root file\n`,
  'root-evil/canary.txt': `${CANARY} look-alike\n`,
  'canary-top.txt': `${CANARY} top\n`,
};

export const SETTINGS: Settings = { ...TEST_SETTINGS, maxFullReadSize: 16 * 1024, maxResultBytes: 64 * 1024, maxFileSize: 64 * 1024 };
export const SESSION = 'fuzz-session';
const FIXED_NOW = new Date('2026-01-01T00:00:00Z');
/** Both worlds read this clock: search deadlines never pass, so a timeout argument is checked but never fires. */
export const FIXED_CLOCK: Clock = { now: () => new Date(FIXED_NOW) };

/** Host paths of one run; the model uses the very same strings, so absolute link texts mean the same to both. */
export interface Hosts {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  /** The Node world's journal directory: a temp dir of its own, outside the root and the canary tree. */
  readonly journal: string;
}

/** Replaces the $BASE, $ROOT, $OUT and $JOURNAL placeholders of a generated string by this run's host paths. */
export function expand(text: string, hosts: Hosts): string {
  return text.replaceAll('$ROOT', hosts.root).replaceAll('$OUT', hosts.outside).replaceAll('$BASE', hosts.base).replaceAll('$JOURNAL', hosts.journal);
}

export function makeHosts(): Hosts {
  const base = realpathSync(mkdtempSync(join(SCRATCH_PARENT, 'mcp-fuzz-')));
  return { base, root: join(base, 'root'), outside: join(base, 'outside'), journal: makeJournalDir() };
}

/** Lays out the tree on disk below hosts.root, and the canaries around it. */
export function seedDisk(hosts: Hosts, tree: TreeSpec): void {
  mkdirSync(hosts.root, { mode: 0o755 });
  for (const [relative, content] of Object.entries(OUTSIDE_FILES)) {
    mkdirSync(dirname(join(hosts.base, relative)), { recursive: true });
    writeFileSync(join(hosts.base, relative), content);
  }
  symlinkSync(hosts.root, join(hosts.outside, 'back-into-root'));
  const fifos: string[] = [];
  for (const entry of allEntries(tree)) {
    const host = join(hosts.root, entry.path);
    if (entry.kind === 'dir') mkdirSync(host, { mode: 0o755 });
    else if (entry.kind === 'file') {
      writeFileSync(host, entry.bytes);
      chmodSync(host, entry.mode);
    } else if (entry.kind === 'link') symlinkSync(expand(entry.text, hosts), host);
    else fifos.push(host);
  }
  for (const host of fifos) renameSync(fifoPool.take(), host);
}

/**
 * FIFOs made ahead, a few hundred per `mkfifo` call (Node cannot make one), and renamed into place:
 * one child process per tree would cost more than the rest of the run.
 */
const fifoPool = {
  dir: '',
  ready: [] as string[],
  made: 0,
  take(): string {
    if (this.ready.length === 0) {
      if (this.dir === '') {
        // On the roots' file system: a FIFO is renamed into place, and rename(2) does not cross file systems.
        const dir = mkdtempSync(join(SCRATCH_PARENT, 'mcp-fuzz-fifos-'));
        process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
        this.dir = dir;
      }
      const names = Array.from({ length: 256 }, () => join(this.dir, `p${this.made++}`));
      execFileSync('mkfifo', ['-m', '644', ...names]);
      this.ready.push(...names);
    }
    return this.ready.pop() as string;
  },
};

/** The same tree and canaries in the model, at the same host paths. */
export function seedModel(hosts: Hosts, tree: TreeSpec): InMemoryFileSystem {
  const fs = new InMemoryFileSystem({ clock: FIXED_CLOCK });
  fs.seedDirectory(hosts.root);
  for (const [relative, content] of Object.entries(OUTSIDE_FILES)) fs.seedFile(join(hosts.base, relative), content);
  fs.seedSymlink(join(hosts.outside, 'back-into-root'), hosts.root);
  for (const entry of allEntries(tree)) {
    const host = join(hosts.root, entry.path);
    if (entry.kind === 'dir') fs.seedDirectory(host);
    else if (entry.kind === 'file') fs.seedFile(host, entry.bytes, { permissions: entry.mode });
    else if (entry.kind === 'link') fs.seedSymlink(host, expand(entry.text, hosts));
    else fs.seedFifo(host);
  }
  return fs;
}

export function removeHosts(hosts: Hosts): void {
  rmSync(hosts.base, { recursive: true, force: true });
  removeJournalDir(hosts.journal);
}

export function nodeFileSystem(options: NodeFileSystemOptions = {}): NodeFileSystem {
  return new NodeFileSystem(options);
}

/**
 * Every tool's domain use case over one file system, wired as the composition root wires them with
 * the journal on: every use case gets the journaling file system in front of `inner` (so every write
 * is journaled), list_changes and undo_changes read `store`, and the undo writes go through the
 * journaling one too. `authors.run` names the call being served, as the MCP adapter does per call.
 */
export function buildTools(inner: FileSystemPort, hosts: Hosts, store: ChangeJournal, limits: JournalLimits, options: { indexed?: boolean } = {}) {
  const journal = journalOn(inner, store, FIXED_CLOCK, limits);
  const files = journal.fs;
  const root = makeRoot('workspace', hosts.root);
  const principals = { current: () => UNRESTRICTED_PRINCIPAL };
  const paths = new PathPolicy([root], { principals, tools: TOOLS });
  const tools = toolPolicy();
  const access = new RootAccess(paths, tools);
  const namespace = new Namespace(paths, access);
  const sessions = new EditSessions(new InMemorySessionState(), files, SETTINGS);
  const hasher = new NodeContentHasher();
  const regex = new Re2RegexEngine();
  const readFile = new ReadFile(access, files, SETTINGS);
  // Issue 31.2: grep on this side narrows its reads with a trigram index (built by indexReady()).
  const indexes = options.indexed ? new SearchIndexes(files, { mode: 'auto', maxBytes: 1 << 24, minRootBytes: 0, maxFileBytes: SETTINGS.maxFileSize, ignore: 'gitignore' }, new IgnoreRuleCache()) : undefined;
  const contents = new ChangeContents(store, paths, files, journal.snapshots);
  return {
    journal,
    indexReady: async () => {
      indexes?.ready(root);
      await indexes?.settled(root);
    },
    listRoots: new ListRoots(paths),
    listFolder: new ListFolder(access, files, SETTINGS),
    readFile,
    readFiles: new ReadFiles(access, readFile, SETTINGS),
    writeFile: new WriteFile(access, files, SETTINGS),
    removeFile: new RemoveFile(access, files),
    patchFile: new PatchFile(access, files, SETTINGS),
    createFolder: new CreateFolder(access, files),
    removeFolder: new RemoveFolder(access, files),
    statFile: new StatFile(access, files),
    hashFile: new HashFile(access, files, hasher),
    permissionsFile: new PermissionsFile(access, files),
    copy: new Copy(files, access),
    move: new Move(files, access),
    grep: new Grep(files, FIXED_CLOCK, regex, SETTINGS, access, new IgnoreRuleCache(), indexes),
    glob: new Glob(files, FIXED_CLOCK, regex, SETTINGS, access),
    view: new View(namespace, sessions, files, hasher, SETTINGS),
    strReplace: new StrReplace(namespace, sessions, files, hasher, SETTINGS),
    createFile: new CreateFile(namespace, sessions, files, hasher, SETTINGS),
    changeDirectory: new ChangeDirectory(namespace, sessions, files),
    fileRead: new FileRead(namespace, sessions, files, hasher, SETTINGS),
    fileWrite: new FileWrite(namespace, sessions, files, hasher, SETTINGS),
    fileList: new FileList(namespace, sessions, files, regex),
    readResource: new ReadResource(access, files, readFile, SETTINGS),
    listChanges: new ListChanges(store, paths, principals, contents, SETTINGS, journal.snapshots),
    undoChanges: new UndoChanges(store, paths, tools, principals, contents, journal.snapshots, new Restorer(files), SETTINGS),
  };
}

export type Tools = ReturnType<typeof buildTools>;

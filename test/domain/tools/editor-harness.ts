import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { InMemorySessionState } from '../../../src/adapters/outbound/in-memory-session-state.js';
import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import { EditSessions } from '../../../src/domain/edit-session.js';
import { Namespace } from '../../../src/domain/namespace.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import type { Settings } from '../../../src/domain/settings.js';
import { ChangeDirectory } from '../../../src/domain/tools/change-directory.js';
import { CreateFile } from '../../../src/domain/tools/create-file.js';
import { FileList } from '../../../src/domain/tools/file-list.js';
import { FileRead } from '../../../src/domain/tools/file-read.js';
import { FileWrite } from '../../../src/domain/tools/file-write.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { StrReplace } from '../../../src/domain/tools/str-replace.js';
import { View } from '../../../src/domain/tools/view.js';
import { TEST_SETTINGS, watchReads } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { toolPolicy } from '../../support/tools.js';

export { domainError } from '../../support/domain.js';

/** A FileSystemPort that counts the bytes every opened file hands out (the in-memory one underneath). */
export class CountingFileSystem {
  bytesRead = 0;
  readonly port: FileSystemPort;

  constructor(inner: InMemoryFileSystem) {
    this.port = watchReads(inner, (_length, bytes) => {
      this.bytesRead += bytes.length;
    });
  }
}

/**
 * The editor and repo tools on one in-memory tree: root 'workspace' at /ws (every tool),
 * root 'readonly' at /ro (view and file_read only, plus list_folder), /outside in no root.
 */
export function editorWorld(options: { settings?: Partial<Settings>; files?: (fs: InMemoryFileSystem) => FileSystemPort } = {}) {
  const fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
  fs.seedDirectory('/ro');
  fs.seedFile('/outside/secret.txt', 'TOP SECRET\n');
  const workspace = makeRoot('workspace', '/ws');
  const readonly = makeRoot('readonly', '/ro', ['view', 'file_read', 'list_folder']);
  const paths = new PathPolicy([workspace, readonly]);
  const namespace = new Namespace(paths, new RootAccess(paths, toolPolicy()));
  const settings: Settings = { ...TEST_SETTINGS, ...options.settings };
  const port = options.files ? options.files(fs) : fs;
  const store = new InMemorySessionState();
  const sessions = new EditSessions(store, port, settings);
  const hasher = new NodeContentHasher();
  return {
    fs,
    store,
    sessions,
    namespace,
    settings,
    view: new View(namespace, sessions, port, hasher, settings),
    strReplace: new StrReplace(namespace, sessions, port, hasher, settings),
    createFile: new CreateFile(namespace, sessions, port, hasher, settings),
    fileRead: new FileRead(namespace, sessions, port, hasher, settings),
    fileWrite: new FileWrite(namespace, sessions, port, hasher, settings),
    fileList: new FileList(namespace, sessions, port, new Re2RegexEngine(), settings),
    changeDirectory: new ChangeDirectory(namespace, sessions, port),
  };
}

export type EditorWorld = ReturnType<typeof editorWorld>;

/** `count` lines "line 1", "line 2", ... each ended by '\n'. */
export function numberedLines(count: number, prefix = 'line '): string {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}\n`).join('');
}

import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import type { Settings } from '../../../src/domain/settings.js';
import { CreateFolder } from '../../../src/domain/tools/create-folder.js';
import { HashFile } from '../../../src/domain/tools/hash-file.js';
import { ListFolder } from '../../../src/domain/tools/list-folder.js';
import { ListRoots } from '../../../src/domain/tools/list-roots.js';
import { PatchFile } from '../../../src/domain/tools/patch-file.js';
import { PermissionsFile } from '../../../src/domain/tools/permissions-file.js';
import { ReadFiles } from '../../../src/domain/tools/read-files.js';
import { ReadFile } from '../../../src/domain/tools/read-file.js';
import { RemoveFile } from '../../../src/domain/tools/remove-file.js';
import { RemoveFolder } from '../../../src/domain/tools/remove-folder.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { StatFile } from '../../../src/domain/tools/stat-file.js';
import { WriteFile } from '../../../src/domain/tools/write-file.js';
import { TEST_SETTINGS, watchReads } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { toolPolicy } from '../../support/tools.js';

export { domainError } from '../../support/domain.js';

/**
 * The file tools on one in-memory tree: root 'workspace' at /ws (every tool), root 'readonly'
 * at /ro (list_folder and read_file only), and /outside, a directory in no root.
 */
export function fileToolsWorld(settings: Partial<Settings> = {}) {
  const fs = new InMemoryFileSystem();
  const workspace = makeRoot('workspace', '/ws');
  const readonly = makeRoot('readonly', '/ro', ['list_folder', 'read_file']);
  fs.seedDirectory('/ws');
  fs.seedDirectory('/ro');
  fs.seedFile('/outside/secret.txt', 'TOP SECRET\n');
  const paths = new PathPolicy([workspace, readonly]);
  const access = new RootAccess(paths, toolPolicy());
  const limits: Settings = { ...TEST_SETTINGS, ...settings };
  const readFile = new ReadFile(access, fs, limits);
  return {
    fs,
    paths,
    access,
    settings: limits,
    listRoots: new ListRoots(paths),
    listFolder: new ListFolder(access, fs),
    readFile,
    readFiles: new ReadFiles(access, readFile, limits),
    writeFile: new WriteFile(access, fs, limits),
    removeFile: new RemoveFile(access, fs),
    patchFile: new PatchFile(access, fs, limits),
    createFolder: new CreateFolder(access, fs),
    removeFolder: new RemoveFolder(access, fs),
    statFile: new StatFile(access, fs),
    // The hasher adapter is pure computation with no I/O, so the domain tests use the real one.
    hashFile: new HashFile(access, fs, new NodeContentHasher()),
    permissionsFile: new PermissionsFile(access, fs),
  };
}

/** The same file system, except that it records the length of each read it is asked for. */
export function recordingReads(fs: InMemoryFileSystem): { port: FileSystemPort; readLengths: number[] } {
  const readLengths: number[] = [];
  return { port: watchReads(fs, (length) => readLengths.push(length)), readLengths };
}

import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import type { Settings } from '../../../src/domain/settings.js';
import { ToolPolicy } from '../../../src/domain/tool-policy.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { TEST_SETTINGS, watchReads } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';

export { domainError } from '../../support/domain.js';

/**
 * Two roots on one in-memory tree: 'workspace' at /ws (every tool) and 'readonly' at /ro
 * (list_folder and read_file only), plus /outside, a directory in no root.
 */
export function fileToolsWorld(settings: Partial<Settings> = {}) {
  const fs = new InMemoryFileSystem();
  const workspace = makeRoot('workspace', '/ws');
  const readonly = makeRoot('readonly', '/ro', ['list_folder', 'read_file']);
  fs.seedDirectory('/ws');
  fs.seedDirectory('/ro');
  fs.seedFile('/outside/secret.txt', 'TOP SECRET\n');
  const paths = new PathPolicy([workspace, readonly]);
  const access = new RootAccess(paths, new ToolPolicy());
  return { fs, paths, access, settings: { ...TEST_SETTINGS, ...settings } };
}

/** The same file system, except that it records the length of each read it is asked for. */
export function recordingReads(fs: InMemoryFileSystem): { port: FileSystemPort; readLengths: number[] } {
  const readLengths: number[] = [];
  return { port: watchReads(fs, (length) => readLengths.push(length)), readLengths };
}

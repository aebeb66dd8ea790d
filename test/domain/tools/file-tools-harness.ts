import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { DomainError } from '../../../src/domain/errors.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import type { FileSystemPort, ReadableFile } from '../../../src/domain/ports/file-system.port.js';
import type { Settings } from '../../../src/domain/settings.js';
import { ToolPolicy } from '../../../src/domain/tool-policy.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { makeRoot } from '../../support/roots.js';

export const DEFAULT_SETTINGS: Settings = {
  maxFullReadSize: 1024 * 1024,
  maxFileSize: 10 * 1024 * 1024,
  requireViewBeforeEdit: true,
  defaultRoot: 'workspace',
  search: { defaultTimeoutSeconds: 300, maxTimeoutSeconds: 600, defaultMaxResults: 100, maxResultsLimit: 1000 },
};

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
  return { fs, paths, access, settings: { ...DEFAULT_SETTINGS, ...settings } };
}

/** The DomainError a call rejects with (fails the test when it resolves or throws something else). */
export async function domainError(call: Promise<unknown>): Promise<DomainError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with a DomainError');
}

/** The same file system, except that every ReadableFile records the length of each read it is asked for. */
export function recordingReads(fs: InMemoryFileSystem): { port: FileSystemPort; readLengths: number[] } {
  const readLengths: number[] = [];
  // Prototype delegation: every other method is the in-memory one, acting on the same tree.
  const port: FileSystemPort = Object.create(fs);
  port.openFile = async (path) => {
    const file = await fs.openFile(path);
    const recorded: ReadableFile = {
      stat: file.stat,
      read: (position, length) => {
        readLengths.push(length);
        return file.read(position, length);
      },
      close: () => file.close(),
    };
    return recorded;
  };
  return { port, readLengths };
}

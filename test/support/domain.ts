import type { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { DomainError } from '../../src/domain/errors.js';
import { PathPolicy } from '../../src/domain/path-policy.js';
import type { FileSystemPort, ReadableFile } from '../../src/domain/ports/file-system.port.js';
import type { Root } from '../../src/domain/roots.js';
import type { Settings } from '../../src/domain/settings.js';
import { RootAccess } from '../../src/domain/tools/root-access.js';
import type { Tree } from './fixtures.js';
import { toolPolicy } from './tools.js';

/** The limits domain tests run with unless they say otherwise (the descriptions' "10.0 MB" etc. follow from these). */
export const TEST_SETTINGS: Settings = {
  maxFullReadSize: 1024 * 1024,
  maxResultBytes: 4 * 1024 * 1024,
  maxFileSize: 10 * 1024 * 1024,
  requireViewBeforeEdit: true,
  defaultRoot: 'workspace',
  search: { defaultTimeoutSeconds: 300, maxTimeoutSeconds: 600, defaultMaxResults: 100, maxResultsLimit: 1000 },
};

/** The preamble of every root-scoped use case, over these roots, with the real path and tool policies. */
export function rootAccess(...roots: Root[]): RootAccess {
  return new RootAccess(new PathPolicy(roots), toolPolicy());
}

/** The DomainError a call rejects with; the test fails when it resolves or rejects with anything else. */
export async function domainError(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** The DomainError an action throws; the test fails when it returns or throws anything else. */
export function thrownDomainError(action: () => unknown): DomainError {
  let error: unknown;
  try {
    action();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/**
 * The same tree, except that every read of an opened file is reported: the length asked for and
 * the bytes handed out. Every other method is the in-memory one (prototype delegation).
 */
export function watchReads(fs: InMemoryFileSystem, onRead: (length: number, bytes: Uint8Array) => void): FileSystemPort {
  const port: FileSystemPort = Object.create(fs);
  port.openFile = async (path) => {
    const file = await fs.openFile(path);
    const watched: ReadableFile = {
      stat: file.stat,
      read: async (position, length) => {
        const bytes = await file.read(position, length);
        onRead(length, bytes);
        return bytes;
      },
      close: () => file.close(),
    };
    return watched;
  };
  return port;
}

/** Seeds `tree` below `hostDir` (a path ending in '/' is an empty directory), as writeTree does on disk. */
export function seedTree(fs: InMemoryFileSystem, hostDir: string, tree: Tree): void {
  for (const [relative, content] of Object.entries(tree)) {
    if (relative.endsWith('/')) fs.seedDirectory(`${hostDir}/${relative.slice(0, -1)}`);
    else fs.seedFile(`${hostDir}/${relative}`, content);
  }
}

/** Seeds a link below `hostDir` for each name -> link text (which may dangle or leave every root). */
export function seedLinks(fs: InMemoryFileSystem, hostDir: string, links: Record<string, string>): void {
  for (const [name, text] of Object.entries(links)) fs.seedSymlink(`${hostDir}/${name}`, text);
}

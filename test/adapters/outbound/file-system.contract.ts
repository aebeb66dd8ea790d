import { DomainError, type ErrorCode } from '../../../src/domain/errors.js';
import type { EntryStat, FileSystemPort, WriteOptions } from '../../../src/domain/ports/file-system.port.js';
import type { Root, RootPath } from '../../../src/domain/roots.js';
import { describeReadContract } from './file-system-contract/read.contract.js';
import { describeWriteContract } from './file-system-contract/write.contract.js';
import { describeTreeContract } from './file-system-contract/tree.contract.js';
import { describeCopyBatchContract } from './file-system-contract/copy-batch.contract.js';
import { describeHostPathContract } from './file-system-contract/host-path.contract.js';
import { describeLockContract } from './file-system-contract/lock.contract.js';
import { describeScanContract } from './file-system-contract/scan.contract.js';
import { describeSpecialFileReadContract, describeSpecialFileWriteContract } from './file-system-contract/special.contract.js';
import { describeDirectoryVersionContract } from './file-system-contract/directory-version.contract.js';

/**
 * One adapter set up for a test: a root named 'workspace', a directory outside it, and
 * ways to build and inspect both by in-root (`rel`) or outside names, whatever the adapter.
 */
export interface Fixture {
  readonly fs: FileSystemPort;
  readonly root: Root;
  /** A host directory outside the root, for escape attempts. */
  readonly outsideHostDir: string;
  /**
   * Builds the tree a test starts from. Async, so that an adapter over a remote or packed store can
   * run the suite: files and folders go through the port itself where the adapter writes
   * (portSeeding), the rest (links, FIFOs, the outside) the way the adapter's store allows.
   */
  readonly seed: {
    dir(rel: string): Promise<void>;
    file(rel: string, content: string, permissions?: number): Promise<void>;
    symlink(rel: string, linkText: string): Promise<void>;
    /** A FIFO (mkfifo). */
    fifo(rel: string): Promise<void>;
    outsideFile(name: string, content: string): Promise<void>;
    /** A symlink inside outsideHostDir (for chains that leave the root and come back). */
    outsideSymlink(name: string, linkText: string): Promise<void>;
    /** A symlink at `rel` with the absolute host path of `outsideHostDir/outsideName` as its text. */
    linkToOutside(rel: string, outsideName: string): Promise<void>;
    /** A file in `<root hostPath>-evil/`, the sibling whose name merely starts like the root's. */
    lookAlikeFile(name: string, content: string): Promise<void>;
  };
  readonly inspect: {
    text(rel: string): string | undefined;
    /** lstat semantics: a dangling link exists. */
    exists(rel: string): boolean;
    /** Every entry under outsideHostDir, recursively, as sorted relative paths. */
    outsideEntries(): string[];
    outsideText(name: string): string | undefined;
  };
  cleanup(): Promise<void>;
}

/** What every contract part receives: the live fixture and helpers bound to it. */
export interface ContractContext {
  readonly fixture: () => Fixture;
  readonly at: (rel: string) => RootPath;
  readonly expectError: (action: Promise<unknown>, code: ErrorCode) => Promise<DomainError>;
  readonly statOf: (rel: string, followSymlinks?: boolean) => Promise<EntryStat | null>;
}

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
export const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
export const REPLACE: WriteOptions = { mode: 'replace', createParents: false };

/** Seeds folders and files through a writable adapter's own port, as any client of it would. */
export function portSeeding(fs: FileSystemPort, root: Root): Pick<Fixture['seed'], 'dir' | 'file'> {
  const at = (rel: string): RootPath => ({ root, segments: rel.split('/') });
  return {
    dir: async (rel) => {
      await fs.createDirectory(at(rel));
    },
    file: async (rel, content, permissions = 0o644) => {
      // Explicit permissions, so the umask does not decide what the tests expect.
      await fs.writeFile(at(rel), encode(content), { mode: 'replace', createParents: true, permissions });
    },
  };
}

const CONTRACT_PARTS = {
  read: describeReadContract,
  scan: describeScanContract,
  specialRead: describeSpecialFileReadContract,
  write: describeWriteContract,
  tree: describeTreeContract,
  copyBatch: describeCopyBatchContract,
  hostPath: describeHostPathContract,
  lock: describeLockContract,
  specialWrite: describeSpecialFileWriteContract,
  directoryVersion: describeDirectoryVersionContract,
} as const;

type ContractPart = keyof typeof CONTRACT_PARTS;

/** What a read-only adapter (an archive) must pass: nothing in it writes through the port. */
export const READ_HALF: readonly ContractPart[] = ['read', 'scan', 'specialRead'];
/** The rest: writes, removals, moves, copies, locks. */
export const WRITE_HALF: readonly ContractPart[] = ['write', 'tree', 'copyBatch', 'hostPath', 'lock', 'specialWrite', 'directoryVersion'];

/** Runs the whole contract, or the parts named (an adapter variant that changes only some paths). */
export function describeFileSystemContract(
  adapterName: string,
  makeFixture: () => Promise<Fixture>,
  parts: readonly ContractPart[] = [...READ_HALF, ...WRITE_HALF],
): void {
  describe(`FileSystemPort contract: ${adapterName}`, () => {
    let current: Fixture | undefined;

    beforeEach(async () => {
      current = await makeFixture();
    });

    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    const fixture = (): Fixture => {
      if (!current) throw new Error('fixture used outside a test');
      return current;
    };

    const context: ContractContext = {
      fixture,
      at: (rel) => ({ root: fixture().root, segments: rel === '' ? [] : rel.split('/') }),
      statOf: (rel, followSymlinks = false) => fixture().fs.stat(context.at(rel), { followSymlinks }),
      async expectError(action, code) {
        const outcome = await action.then(
          (value: unknown) => ({ value }),
          (error: unknown) => ({ error }),
        );
        if (!('error' in outcome)) throw new Error(`expected ${code}, but the call succeeded`);
        const { error } = outcome;
        expect(error).toBeInstanceOf(DomainError);
        const domainError = error as DomainError;
        expect(domainError.code).toBe(code);
        // Security: a client sees this message; it may name the root, never a host path.
        expect(domainError.message).not.toContain(fixture().root.hostPath);
        expect(domainError.message).not.toContain(fixture().outsideHostDir);
        if (code !== 'INVALID_ARGUMENT') expect(domainError.message).toContain(`(root: ${fixture().root.name})`);
        return domainError;
      },
    };

    for (const part of parts) CONTRACT_PARTS[part](context);
  });
}

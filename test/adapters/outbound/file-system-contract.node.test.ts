import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { NodeFileSystem, type NodeFileSystemOptions } from '../../../src/adapters/outbound/node-file-system.js';
import { ParallelLstat } from '../../../src/adapters/outbound/node-fs/parallel-lstat.js';
import { makeRoot } from '../../support/roots.js';
import { describeFileSystemContract, type Fixture, portSeeding } from './file-system.contract.js';

/** Real temp dirs: `<tmp>/root` is the root, `<tmp>/outside` and `<tmp>/root-evil` its neighbours. */
async function nodeFixture(options: NodeFileSystemOptions = {}): Promise<Fixture> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'fs-contract-')));
  const rootHost = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(rootHost);
  mkdirSync(outside);
  const inRoot = (rel: string) => join(rootHost, rel);
  const writeFile = (host: string, content: string, permissions?: number) => {
    mkdirSync(dirname(host), { recursive: true });
    writeFileSync(host, content);
    // Explicit, so the umask does not decide what the tests expect.
    chmodSync(host, permissions ?? 0o644);
  };
  const symlink = (host: string, linkText: string) => {
    mkdirSync(dirname(host), { recursive: true });
    symlinkSync(linkText, host);
  };
  /** lstat semantics, like the in-memory inspection helpers: a link is not read through. */
  const textOf = (host: string): string | undefined => {
    try {
      return lstatSync(host).isFile() ? readFileSync(host, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  };
  const fs = new NodeFileSystem(options);
  const root = makeRoot('workspace', rootHost);
  return {
    fs,
    root,
    outsideHostDir: outside,
    seed: {
      ...portSeeding(fs, root),
      // The port makes no links or FIFOs, and never writes outside the root: those go to the disk directly.
      symlink: async (rel, linkText) => symlink(inRoot(rel), linkText),
      fifo: async (rel) => {
        execFileSync('mkfifo', ['-m', '644', inRoot(rel)]);
      },
      outsideFile: async (name, content) => writeFile(join(outside, name), content),
      outsideSymlink: async (name, linkText) => symlink(join(outside, name), linkText),
      linkToOutside: async (rel, outsideName) => symlink(inRoot(rel), join(outside, outsideName)),
      lookAlikeFile: async (name, content) => writeFile(join(`${rootHost}-evil`, name), content),
    },
    inspect: {
      text: (rel) => textOf(inRoot(rel)),
      exists: (rel) => {
        try {
          lstatSync(inRoot(rel));
          return true;
        } catch {
          return false;
        }
      },
      outsideEntries: () => (readdirSync(outside, { recursive: true }) as string[]).sort(),
      outsideText: (name) => textOf(join(outside, name)),
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

describeFileSystemContract('NodeFileSystem', () => nodeFixture());
// Every read of a scan counted as cold: after the first two files of a directory, its files are read on the thread pool.
describeFileSystemContract('NodeFileSystem, scans reading on the thread pool', () => nodeFixture({ coldReadMs: 0 }), ['scan']);
// Every listing's lstats shared with a helper thread a name at a time, the helper taking the first (in production,
// listings of 512 names or more, and the event loop's thread starts at once).
const helperLstats = new ParallelLstat({ minNames: 1, chunk: 1, helperHeadStartMs: 1000 });
beforeAll(() => helperLstats.ready());
afterAll(async () => {
  // It must have taken part, or this run proved nothing about it.
  expect(helperLstats.helped).toBeGreaterThan(0);
  await helperLstats.close();
});
describeFileSystemContract('NodeFileSystem, listings statted with a helper thread', () => nodeFixture({ lstats: helperLstats }), ['read', 'hostPath', 'write']);

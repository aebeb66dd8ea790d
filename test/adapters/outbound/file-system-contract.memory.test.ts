import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { makeRoot } from '../../support/roots.js';
import { describeFileSystemContract, type Fixture, portSeeding } from './file-system.contract.js';

const ROOT_HOST = '/data/workspace';
const OUTSIDE = '/outside';

async function memoryFixture(): Promise<Fixture> {
  const fs = new InMemoryFileSystem();
  fs.seedDirectory(ROOT_HOST);
  fs.seedDirectory(OUTSIDE);
  const inRoot = (rel: string) => `${ROOT_HOST}/${rel}`;
  const outsideEntries = (dir: string, prefix: string): string[] =>
    fs.list(dir).flatMap((name) => [`${prefix}${name}`, ...outsideEntries(`${dir}/${name}`, `${prefix}${name}/`)]);
  const root = makeRoot('workspace', ROOT_HOST);
  return {
    fs,
    root,
    outsideHostDir: OUTSIDE,
    seed: {
      ...portSeeding(fs, root),
      // The port makes no links or FIFOs, and never writes outside the root: the model's seeding does.
      symlink: async (rel, linkText) => fs.seedSymlink(inRoot(rel), linkText),
      fifo: async (rel) => fs.seedFifo(inRoot(rel)),
      outsideFile: async (name, content) => fs.seedFile(`${OUTSIDE}/${name}`, content),
      outsideSymlink: async (name, linkText) => fs.seedSymlink(`${OUTSIDE}/${name}`, linkText),
      linkToOutside: async (rel, outsideName) => fs.seedSymlink(inRoot(rel), `${OUTSIDE}/${outsideName}`),
      lookAlikeFile: async (name, content) => fs.seedFile(`${ROOT_HOST}-evil/${name}`, content),
    },
    inspect: {
      text: (rel) => fs.readText(inRoot(rel)),
      exists: (rel) => fs.exists(inRoot(rel)),
      outsideEntries: () => outsideEntries(OUTSIDE, '').sort(),
      outsideText: (name) => fs.readText(`${OUTSIDE}/${name}`),
    },
    cleanup: async () => undefined,
  };
}

describeFileSystemContract('InMemoryFileSystem', memoryFixture);

import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { makeRoot } from '../../support/roots.js';
import { describeFileSystemContract, type Fixture } from './file-system.contract.js';

const ROOT_HOST = '/data/workspace';
const OUTSIDE = '/outside';

async function memoryFixture(): Promise<Fixture> {
  const fs = new InMemoryFileSystem();
  fs.seedDirectory(ROOT_HOST);
  fs.seedDirectory(OUTSIDE);
  const inRoot = (rel: string) => `${ROOT_HOST}/${rel}`;
  const outsideEntries = (dir: string, prefix: string): string[] =>
    fs.list(dir).flatMap((name) => [`${prefix}${name}`, ...outsideEntries(`${dir}/${name}`, `${prefix}${name}/`)]);
  return {
    fs,
    root: makeRoot('workspace', ROOT_HOST),
    outsideHostDir: OUTSIDE,
    seed: {
      dir: (rel) => fs.seedDirectory(inRoot(rel)),
      file: (rel, content, permissions) => fs.seedFile(inRoot(rel), content, { permissions }),
      symlink: (rel, linkText) => fs.seedSymlink(inRoot(rel), linkText),
      fifo: (rel) => fs.seedFifo(inRoot(rel)),
      outsideFile: (name, content) => fs.seedFile(`${OUTSIDE}/${name}`, content),
      outsideSymlink: (name, linkText) => fs.seedSymlink(`${OUTSIDE}/${name}`, linkText),
      linkToOutside: (rel, outsideName) => fs.seedSymlink(inRoot(rel), `${OUTSIDE}/${outsideName}`),
      lookAlikeFile: (name, content) => fs.seedFile(`${ROOT_HOST}-evil/${name}`, content),
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

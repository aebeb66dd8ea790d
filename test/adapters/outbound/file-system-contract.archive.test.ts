import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ArchiveFileSystem } from '../../../src/adapters/outbound/archive-file-system.js';
import { makeRoot } from '../../support/roots.js';
import { tarArchive, type TarMember } from '../../support/tar-writer.js';
import { describeFileSystemContract, type Fixture, READ_HALF } from './file-system.contract.js';

/**
 * The root is `<tmp>/root.tar`; every seed adds a member and writes the archive anew (the adapter
 * cannot write), and the next use of `fs` opens that archive. The outside is a real directory.
 */
async function archiveFixture(gzip: boolean): Promise<Fixture> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'fs-archive-contract-')));
  const archivePath = join(base, gzip ? 'root.tar.gz' : 'root.tar');
  const outside = join(base, 'outside');
  mkdirSync(outside);
  const members: TarMember[] = [];
  let fs = new ArchiveFileSystem(archivePath);
  const add = async (member: TarMember) => {
    members.push(member);
    await writeFile(archivePath, tarArchive(members, { gzip }));
    await fs.close();
    fs = new ArchiveFileSystem(archivePath);
  };
  await add({ name: '.', type: 'directory' });
  const hostFile = async (host: string, content: string) => {
    mkdirSync(dirname(host), { recursive: true });
    writeFileSync(host, content);
  };
  const hostLink = async (host: string, linkText: string) => {
    mkdirSync(dirname(host), { recursive: true });
    symlinkSync(linkText, host);
  };
  const last = (rel: string) => members.filter((member) => member.name.replace(/\/$/, '') === rel).at(-1);
  return {
    get fs() {
      return fs;
    },
    root: makeRoot('workspace', archivePath),
    outsideHostDir: outside,
    seed: {
      dir: (rel) => add({ name: rel, type: 'directory' }),
      file: (rel, content, permissions) => add({ name: rel, type: 'file', content, mode: permissions }),
      symlink: (rel, linkText) => add({ name: rel, type: 'symlink', linkName: linkText }),
      fifo: (rel) => add({ name: rel, type: 'fifo' }),
      outsideFile: (name, content) => hostFile(join(outside, name), content),
      outsideSymlink: (name, linkText) => hostLink(join(outside, name), linkText),
      linkToOutside: (rel, outsideName) => add({ name: rel, type: 'symlink', linkName: join(outside, outsideName) }),
      lookAlikeFile: (name, content) => hostFile(join(`${archivePath}-evil`, name), content),
    },
    inspect: {
      text: (rel) => {
        const member = last(rel);
        return member?.type === 'file' ? String(member.content ?? '') : undefined;
      },
      exists: (rel) => last(rel) !== undefined,
      outsideEntries: () => (readdirSync(outside, { recursive: true }) as string[]).sort(),
      outsideText: (name) => readFileSync(join(outside, name), 'utf8'),
    },
    cleanup: async () => {
      await fs.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

describeFileSystemContract('ArchiveFileSystem (.tar)', () => archiveFixture(false), READ_HALF);
describeFileSystemContract('ArchiveFileSystem (.tar.gz)', () => archiveFixture(true), READ_HALF);

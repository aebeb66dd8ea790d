import { promises as fs } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';
import { writeTree } from '../support/fixtures.js';
import { pair, useArena, ws } from './adversarial-harness.js';

// Issue 20: before-images are never reachable through any tool, listing, search, resource or
// completion, of any root, with the journal on (the test server's default, as in production).
// The content of MARKER exists only in before-images once the files holding it are overwritten,
// removed or moved away, so any answer carrying it came from the journal.

const { live, arena, call, host } = useArena({ roots: [{ name: 'workspace' }, { name: 'other' }] });
const MARKER = `BEFORE-IMAGE-${Date.now().toString(36)}`;

function journalDir(): string {
  const dir = live.server.config.journal?.dir;
  if (dir === undefined) throw new Error('the test server runs with the journal on');
  return dir;
}

/** Every answer is checked for the marker and for any name or path of the journal (but what the caller itself sent may come back). */
function expectNothingOfTheJournal(what: string, outcome: unknown, input = ''): void {
  const text = JSON.stringify(outcome);
  for (const needle of [MARKER, journalDir(), basename(dirname(journalDir())), '.img', 'records/'].filter((needle) => !input.includes(needle))) {
    expect({ what, leaks: text.includes(needle) ? needle : null }).toEqual({ what, leaks: null });
  }
}

/** Changes whose before-images hold MARKER (overwritten, removed, a removed tree, a file moved over), none of it left in a root. */
async function makeChangesWithMarkerImages(): Promise<void> {
  await writeTree(live.root, {
    'overwritten.txt': `${MARKER} overwritten\n`,
    'removed.txt': `${MARKER} removed\n`,
    'tree/a.txt': `${MARKER} in a removed tree\n`,
    'replaced.txt': `${MARKER} replaced by a move\n`,
    'mover.txt': 'plain\n',
  });
  for (const [name, args] of [
    ['write_file', ws({ path: 'overwritten.txt', content: 'plain\n' })],
    ['remove_file', ws({ path: 'removed.txt' })],
    ['remove_folder', ws({ path: 'tree' })],
    ['move', pair('mover.txt', 'replaced.txt')],
    ['copy', pair('replaced.txt', 'copied.txt', 'workspace', 'other')],
  ] as [string, Record<string, unknown>][]) {
    expect((await call(name, args)).isError).toBe(false);
  }
  // The marker is in the journal's before-images (the begin log, and the image files written just
  // after each call), and nowhere in the roots.
  expect(await markersInTheJournal(4)).toBeGreaterThanOrEqual(4);
}

/**
 * How often MARKER occurs in the journal's files. The image files are written after each call
 * answers (a temp file, then a rename), so a file listed may be gone when read, and the count is
 * taken again until it reaches `wanted` or two seconds pass.
 */
async function markersInTheJournal(wanted: number): Promise<number> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const files = (await fs.readdir(journalDir(), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    const held = await Promise.all(files.map((entry) => fs.readFile(join(entry.parentPath, entry.name), 'latin1').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    })));
    const count = held.join('\n').split(MARKER).length - 1;
    if (count >= wanted || Date.now() > deadline) return count;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The name of one before-image file in the journal's records, waiting for the writes that follow a call's answer. */
async function anImageFile(): Promise<string> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const image = (await fs.readdir(join(journalDir(), 'records'))).find((name) => name.endsWith('.img'));
    if (image !== undefined) return image;
    if (Date.now() > deadline) throw new Error('no before-image file was written');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('with the journal on, nothing of it is reachable', () => {
  it('no listing, search, read, resource or completion of any root shows a record, a before-image or its content', async () => {
    await makeChangesWithMarkerImages();
    const client = live.client;
    for (const root of ['workspace', 'other']) {
      const inRoot = (extra: Record<string, unknown>) => ({ root, ...extra });
      for (const [name, args] of [
        ['list_folder', inRoot({ path: '.', depth: 10 })],
        ['glob', inRoot({ pattern: '**', type_filter: 'all', ignore: 'none' })],
        ['grep', inRoot({ pattern: MARKER, ignore: 'none' })],
        ['grep', inRoot({ pattern: '.', ignore: 'none' })],
        ['file_list', { path: `/${root}`, ignore: 'none' }],
        ['view', { path: `/${root}` }],
        ['read_files', { root, paths: ['overwritten.txt', 'replaced.txt', 'copied.txt'] }],
      ] as [string, Record<string, unknown>][]) {
        expectNothingOfTheJournal(`${name} ${root}`, await call(name, args));
      }
      for (const value of ['', '.', '..', '../', '../../']) {
        const completed = await client.complete({ ref: { type: 'ref/resource', uri: 'mcpfs://{root}/{+path}' }, argument: { name: 'path', value }, context: { arguments: { root } } }).catch((error: Error) => error.message);
        expectNothingOfTheJournal(`completion ${root} ${value}`, completed);
      }
      const listing = await client.readResource({ uri: `mcpfs://${root}/` });
      expectNothingOfTheJournal(`resource mcpfs://${root}/`, listing);
    }
    expectNothingOfTheJournal('resources/list', await client.listResources());
    // The one place that shows a before-image's content is list_changes' diff, to the change's own principal.
    const changes = await call('list_changes', { diff: true });
    expect(changes.isError).toBe(false);
    expect(JSON.stringify(changes.structured)).not.toContain(journalDir());
  });

  it('a path that climbs to the journal, or an in-root link to it or to a before-image, reaches nothing', async () => {
    await makeChangesWithMarkerImages();
    const image = await anImageFile();
    const imagePath = join(journalDir(), 'records', image);
    await fs.symlink(journalDir(), host('journal-link'));
    await fs.symlink(imagePath, host('image-link'));
    await fs.symlink(relative(live.root, imagePath), host('image-relative-link'));
    const climbing = relative(live.root, imagePath);
    const outcomes: [string, ToolCallOutcome, string][] = [];
    for (const path of ['image-link', 'image-relative-link', climbing, 'journal-link/records/' + image]) {
      for (const [name, args] of [
        ['read_file', ws({ path })],
        ['hash_file', ws({ path, algorithm: 'sha256' })],
        ['grep', ws({ path, pattern: '.' })],
        ['copy', pair(path, 'stolen.img')],
        ['write_file', ws({ path, content: 'forged' })],
        ['write_file', ws({ path, content: 'forged', mode: 'append' })],
        ['file_read', { path: `/workspace/${path}` }],
        // A link itself may be moved or removed (that touches the link, not its target): the climb may not.
        ...(path === climbing ? [['move', pair(path, 'stolen.img')], ['remove_file', ws({ path })]] : []),
      ] as [string, Record<string, unknown>][]) {
        outcomes.push([`${name} ${path}`, await call(name, args), path]);
      }
    }
    for (const [name, args] of [
      ['list_folder', ws({ path: 'journal-link' })],
      ['list_folder', ws({ path: 'journal-link/records' })],
      ['glob', ws({ path: 'journal-link', pattern: '**' })],
      ['remove_folder', ws({ path: 'journal-link/records' })],
    ] as [string, Record<string, unknown>][]) {
      outcomes.push([name, await call(name, args), JSON.stringify(args)]);
    }
    for (const [what, outcome, input] of outcomes) {
      expect({ what, isError: outcome.isError }).toEqual({ what, isError: true });
      expectNothingOfTheJournal(what, outcome, input);
    }
    const read = await live.client.readResource({ uri: 'mcpfs://workspace/image-link' }).catch((error: Error) => error.message);
    expectNothingOfTheJournal('resource image-link', read);
    // The journal is whole: the image is still there, and every change is still listed and undoable.
    expect((await fs.readFile(imagePath, 'utf8')).includes(MARKER)).toBe(true);
    const listed = await callTool(live.client, 'list_changes', {});
    expect(listed.structured.changes.filter((change: { undoable: boolean }) => change.undoable).length).toBeGreaterThanOrEqual(5);
  });
});

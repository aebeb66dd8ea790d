import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithStrace } from '../../../support/strace.js';

/**
 * Issue 27 point 6: a tree copy syncs each folder once, not once per entry, and is as durable
 * when it answers: every copied file was fsynced before it was renamed into place, and every
 * folder after the last entry placed in it. With the journal on, the records (and the
 * before-images of overwritten files) are durable in the begin log before those renames. Only
 * the kernel can show that: the built server (dist/) runs under strace and the test reads its
 * fsyncs, fdatasyncs and renames, in the order they completed.
 */
const describeTraced = describeWithStrace('test/adapters/outbound/node-fs/copy-durability.test.ts', 'a tree copy syncs each folder once');

/** Copies ws/src to ws/fresh (nothing there), then into ws/over, over ws/over/src (the same names with other content), through the SDK client. */
const DRIVER = `
const [project, config] = process.argv.slice(1);
const { Client } = await import(project + '/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js');
const { StdioClientTransport } = await import(project + '/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js');
const journalDir = config.replace(/config.yaml$/, 'journal');
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [project + '/dist/main.js', '--stdio', '--config', config],
  env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error', MCP_FS_JOURNAL_DIR: journalDir },
  stderr: 'inherit',
});
const client = new Client({ name: 'copy-durability', version: '1' });
await client.connect(transport);
for (const dest of ['fresh', 'over']) {
  const result = await client.callTool({ name: 'copy', arguments: { source_root: 'w', source_path: 'src', dest_root: 'w', dest_path: dest } });
  if (result.isError || result.structuredContent.files_copied !== 16) throw new Error(JSON.stringify(result));
}
await client.close();
`;

/** src: 3 files at the top, d0 and d1 with 5 files each, d1/e with 3, and an empty folder. Names say their folder. */
const FILES: Record<string, string[]> = { '': ['top-0', 'top-1', 'top-2'], d0: ['d0-0', 'd0-1', 'd0-2', 'd0-3', 'd0-4'], d1: ['d1-0', 'd1-1', 'd1-2', 'd1-3', 'd1-4'], 'd1/e': ['e-0', 'e-1', 'e-2'] };

type Event = { kind: 'fsync' | 'logsync'; path: string } | { kind: 'rename'; name: string };

describeTraced('a tree copy through the server: what it syncs, and when', () => {
  let base: string;
  let events: { fresh: Event[]; over: Event[] };

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'copy-durability-')));
    for (const tree of ['src', 'over/src']) {
      mkdirSync(join(base, 'ws', tree, 'empty'), { recursive: true });
      for (const [folder, names] of Object.entries(FILES)) {
        mkdirSync(join(base, 'ws', tree, folder), { recursive: true });
        for (const name of names) writeFileSync(join(base, 'ws', tree, folder, `${name}.txt`), `${tree} ${name}\n`);
      }
    }
    writeFileSync(join(base, 'config.yaml'), ['log_level: error', 'roots:', '  - name: w', `    path: ${JSON.stringify(join(base, 'ws'))}`, '    allowed_tools: ["*"]', ''].join('\n'));
    const trace = join(base, 'trace');
    const run = spawnSync(
      'strace',
      ['-f', '-qq', '-y', '-e', 'trace=fsync,fdatasync,rename,renameat,renameat2', '-o', trace, process.execPath, '--input-type=module', '-e', DRIVER, '--', process.cwd(), join(base, 'config.yaml')],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`the traced copy failed: ${run.stderr}`);
    const all = completed(readFileSync(trace, 'utf8'), base);
    // The first copy ends with its last folder's sync.
    const split = lastIndex(all, (event) => event.kind === 'fsync' && event.path.startsWith('ws/fresh')) + 1;
    events = { fresh: all.slice(0, split), over: all.slice(split) };
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('syncs each copied folder once, after every entry placed in it, and each file once before its rename', () => {
    const { fresh } = events;
    const folderSyncs = (path: string) => fresh.filter((event) => event.kind === 'fsync' && event.path === path).length;
    // ws: fresh was made in it; fresh: 3 files and 3 folders; d1: 5 files and a folder; an empty folder gets nothing of its own.
    expect(['ws', 'ws/fresh', 'ws/fresh/d0', 'ws/fresh/d1', 'ws/fresh/d1/e', 'ws/fresh/empty'].map(folderSyncs)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(fresh.filter((event) => event.kind === 'fsync' && event.path.endsWith('/TEMP'))).toHaveLength(16);
    for (const [folder, names] of Object.entries(FILES)) {
      const synced = fresh.findIndex((event) => event.kind === 'fsync' && event.path === join('ws/fresh', folder));
      for (const name of names) {
        const renamed = fresh.findIndex((event) => event.kind === 'rename' && event.name === `${name}.txt`);
        expect(renamed).toBeGreaterThan(fresh.findIndex((event) => event.kind === 'fsync' && event.path === join('ws/fresh', folder, 'TEMP')));
        expect(synced).toBeGreaterThan(renamed);
      }
    }
  });

  it('makes the journal durable once per folder, not per file, and before any file of that folder is overwritten', () => {
    const { over } = events;
    const logSyncs = over.filter((event) => event.kind === 'logsync').length;
    expect(logSyncs).toBeGreaterThan(0);
    expect(logSyncs).toBeLessThan(16);
    for (const [folder, names] of Object.entries(FILES)) {
      const firstRename = Math.min(...names.map((name) => over.findIndex((event) => event.kind === 'rename' && event.name === `${name}.txt`)));
      // The previous folder's sync (or the first copy's last) ends the previous batch: this batch's records were synced after it and before its first rename.
      const previousBatchEnd = lastIndex(over.slice(0, firstRename), (event) => event.kind === 'fsync' && !event.path.endsWith('/TEMP'));
      expect(over.slice(previousBatchEnd + 1, firstRename).some((event) => event.kind === 'logsync')).toBe(true);
      expect(over.filter((event) => event.kind === 'fsync' && event.path === join('ws/over/src', folder))).toHaveLength(1);
    }
  });
});

/**
 * The traced calls in the order they completed ("<... fsync resumed>" ends a call another thread
 * interrupted): fsyncs below ws (temp files as TEMP), fdatasyncs of the journal's begin log, and
 * renames by target name. The journal's own files and the in-flight records are left out.
 */
function completed(text: string, base: string): Event[] {
  const pending = new Map<string, string>();
  const events: Event[] = [];
  for (const line of text.split('\n')) {
    const pid = line.split(/\s+/)[0];
    let call = line;
    if (line.includes('<unfinished ...>')) {
      pending.set(pid, line);
      continue;
    }
    if (line.includes('resumed>')) call = `${pending.get(pid) ?? ''}${line}`;
    if (!/ = 0\s*$/.test(call)) continue;
    const synced = /\b(fsync|fdatasync)\(\d+<([^>]*)>/.exec(call);
    if (synced && synced[2].includes('/journal/log/')) events.push({ kind: 'logsync', path: synced[2] });
    else if (synced && synced[2].startsWith(join(base, 'ws'))) {
      events.push({ kind: 'fsync', path: synced[2].slice(base.length + 1).replace(/\.mcp-fs-[0-9a-f]+\.tmp$/, 'TEMP') });
    }
    const renamed = /\brename(?:at2?)?\(.*"[^"]*\/([^"/]+)"\D*\) = 0/.exec(call);
    if (renamed && !renamed[1].startsWith('.')) events.push({ kind: 'rename', name: renamed[1] });
  }
  return events;
}

function lastIndex(events: readonly Event[], wanted: (event: Event) => boolean): number {
  for (let index = events.length - 1; index >= 0; index -= 1) if (wanted(events[index])) return index;
  return -1;
}

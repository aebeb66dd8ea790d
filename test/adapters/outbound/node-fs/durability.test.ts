import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithStrace } from '../../../support/strace.js';

/**
 * An acknowledged write survives a power loss: the Node adapter fsyncs what it wrote before it
 * answers. Only the kernel can show that, so the real adapter (dist/, built by `npm test`) runs
 * under strace in a child process and the test reads which fsyncs it made, in order.
 */
const describeTraced = describeWithStrace('test/adapters/outbound/node-fs/durability.test.ts', 'acknowledged writes are fsynced, directory included');

const DRIVER = `
const [distDir, host, stateDir] = process.argv.slice(1);
const { NodeFileSystem } = await import(distDir + '/adapters/outbound/node-file-system.js');
const root = { name: 'w', hostPath: host, allowedTools: new Set(['*']), configuredTools: ['*'] };
const at = (rel) => ({ root, segments: rel.split('/') });
const fs = new NodeFileSystem({ stateDir });
const bytes = (text) => new TextEncoder().encode(text);
const small = bytes('new');
const large = new Uint8Array(2 * 1024 * 1024).fill(97);
await fs.writeFile(at('sub/replaced.txt'), small, { mode: 'replace', createParents: false });
await fs.writeFile(at('sub/large.txt'), large, { mode: 'replace', createParents: false });
await fs.writeFile(at('sub/created.txt'), small, { mode: 'create_exclusive', createParents: false });
await fs.writeFile(at('sub/log.txt'), bytes('more'), { mode: 'append', createParents: false });
await fs.writeFile(at('sub/new.log'), bytes('first'), { mode: 'append', createParents: false });
await fs.rename(at('sub/replaced.txt'), at('other/moved.txt'));
await fs.rename(at('sub/created.txt'), at('sub/renamed.txt'));
await fs.writeFile(at('sub/new1/new2/deep.txt'), small, { mode: 'replace', createParents: true });
await fs.removeFile(at('sub/gone.txt'));
await fs.removeDirectory(at('sub/tree'));
`;

describeTraced('NodeFileSystem: what an acknowledged write has fsynced', () => {
  let base: string;
  let calls: string[];

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'durability-'));
    const sub = join(base, 'ws', 'sub');
    mkdirSync(sub, { recursive: true });
    mkdirSync(join(base, 'ws', 'other'));
    writeFileSync(join(sub, 'replaced.txt'), 'old');
    writeFileSync(join(sub, 'large.txt'), 'old');
    writeFileSync(join(sub, 'log.txt'), 'one\n');
    writeFileSync(join(sub, 'gone.txt'), 'to remove');
    mkdirSync(join(sub, 'tree', 'inner'), { recursive: true });
    writeFileSync(join(sub, 'tree', 'inner', 'leaf.txt'), 'to remove');
    const trace = join(base, 'trace');
    const run = spawnSync(
      'strace',
      ['-f', '-qq', '-y', '-e', 'trace=fsync,fdatasync,rename,renameat,renameat2,link,linkat,unlink,unlinkat,rmdir', '-o', trace, process.execPath, '--input-type=module', '-e', DRIVER, '--', join(process.cwd(), 'dist'), join(base, 'ws'), join(base, 'state')],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`the traced writer failed: ${run.stderr}`);
    // "1234  fsync(19</base/ws/sub>) = 0" -> "fsync(ws/sub)"; renames and links by target name; the state directory is not ours to judge.
    calls = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.includes(base) || line.includes('/proc/self/fd/'))
      .filter((line) => !line.includes(join(base, 'state')))
      .map((line) => {
        const synced = /(fsync|fdatasync)\(\d+<([^>]*)>\)/.exec(line);
        if (synced) return `fsync(${synced[2].slice(base.length + 1).replace(/\.mcp-fs-[0-9a-f]+\.tmp$/, 'TEMP')})`;
        const moved = /\b(rename|renameat2?|link|linkat)\(.*"[^"]*\/([^"/]+)"\D*\) = 0/.exec(line);
        if (moved) return `${moved[1].startsWith('link') ? 'link' : 'rename'}(${moved[2]})`;
        // Removals of the test's own entries (the adapter's temp files and records are not judged here).
        const removed = /\b(unlink|unlinkat|rmdir)\(.*"[^"]*\/((?:gone|tree|inner|leaf)[^"/]*)"/.exec(line);
        return removed ? `remove(${removed[2]})` : '';
      })
      .filter(Boolean);
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('replace: the temp file before the rename, the directory after it (small and large content)', () => {
    expect(calls.slice(0, 6)).toEqual(['fsync(ws/sub/TEMP)', 'rename(replaced.txt)', 'fsync(ws/sub)', 'fsync(ws/sub/TEMP)', 'rename(large.txt)', 'fsync(ws/sub)']);
  });

  it('create_exclusive: the temp file before the link, the directory after it', () => {
    expect(calls.slice(6, 9)).toEqual(['fsync(ws/sub/TEMP)', 'link(created.txt)', 'fsync(ws/sub)']);
  });

  it('append: the file itself, and the directory when the append created the file', () => {
    expect(calls.slice(9, 12)).toEqual(['fsync(ws/sub/log.txt)', 'fsync(ws/sub/new.log)', 'fsync(ws/sub)']);
  });

  it('rename (move): both directories after the rename, the one directory when it stays', () => {
    expect(calls.slice(12, 17)).toEqual(['rename(moved.txt)', 'fsync(ws/other)', 'fsync(ws/sub)', 'rename(renamed.txt)', 'fsync(ws/sub)']);
  });

  it('createParents: each directory it makes is synced into its parent before the write goes on', () => {
    expect(calls.slice(17, 22)).toEqual(['fsync(ws/sub)', 'fsync(ws/sub/new1)', 'fsync(ws/sub/new1/new2/TEMP)', 'rename(deep.txt)', 'fsync(ws/sub/new1/new2)']);
  });

  it('removals: the parent directory after the file or the whole tree is gone', () => {
    expect(calls.slice(22)).toEqual(['remove(gone.txt)', 'fsync(ws/sub)', 'remove(leaf.txt)', 'remove(inner)', 'remove(tree)', 'fsync(ws/sub)']);
  });
});

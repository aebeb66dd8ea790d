import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BeginLog, type BeginLogOptions, type ImageFiles } from '../../../../src/adapters/outbound/journal/begin-log.js';
import { ForeignBeginLogs } from '../../../../src/adapters/outbound/journal/begin-log-reader.js';
import { replayBeginLogs } from '../../../../src/adapters/outbound/journal/begin-log-replay.js';
import { DiskChangeJournal } from '../../../../src/adapters/outbound/journal/disk-change-journal.js';
import { encodeImageFile, readImageFile, readImageRecord } from '../../../../src/adapters/outbound/journal/image-files.js';
import { draft, ManualClock } from './change-journal.contract.js';

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const image = (text: string) => ({ entries: [{ relativePath: '', kind: 'file' as const, mode: 0o640, content: new TextEncoder().encode(text) }] });

describe('BeginLog: what makes a begin durable, replayed at start-up', () => {
  let base: string;
  let files: ImageFiles;
  let logDir: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'begin-log-'));
    logDir = join(base, 'log');
    const records = join(base, 'records');
    for (const dir of [logDir, records]) mkdirSync(dir);
    files = { records, imageFile: (id) => join(records, `${id}.img`), recordFile: (id) => join(records, `${id}.json`) };
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  /** A log of a server that is gone; its image files are never written (it died first). */
  const deadServersLog = (options: BeginLogOptions = {}) => new BeginLog(logDir, { pid: deadPid(), instance: 'dead', host: hostname() }, files, async () => true, options);
  const begun = (id: string, text: string) => encodeImageFile(image(text), { state: 'pending', record: { ...draft(), id, time: '2026-01-01T00:00:00.000Z' } }).bytes;
  const stateOf = (id: string) => (readImageRecord(files.imageFile(id)) as { state: string } | null)?.state;

  it('a dead server\'s begins become image files: committed ones say committed, aborted ones are not written, and the log goes', async () => {
    const log = deadServersLog();
    await Promise.all([log.append('0000000000000001a', begun('0000000000000001a', 'one')), log.append('0000000000000002a', begun('0000000000000002a', 'two')), log.append('0000000000000003a', begun('0000000000000003a', 'three'))]);
    expect(log.commit('0000000000000001a')).toBe(true);
    log.forget('0000000000000003a');
    expect(replayBeginLogs(logDir, 'me', files)).toBe(2);
    expect(readdirSync(files.records).sort()).toEqual(['0000000000000001a.img', '0000000000000002a.img']);
    expect(stateOf('0000000000000001a')).toBe('committed');
    expect(stateOf('0000000000000002a')).toBe('pending');
    expect(await readImageFile(files.imageFile('0000000000000001a'))).toEqual(image('one'));
    expect(readdirSync(logDir)).toEqual([]);
  });

  it('a torn image file is written again; a whole one is kept; an evicted one is not brought back', async () => {
    const log = deadServersLog();
    for (const id of ['0000000000000001a', '0000000000000002a', '0000000000000003a']) await log.append(id, begun(id, `content of ${id}`));
    for (const id of ['0000000000000001a', '0000000000000002a']) log.commit(id);
    // A power cut: the first file is empty (allocated, never flushed); the second was written whole.
    writeFileSync(files.imageFile('0000000000000001a'), '');
    writeFileSync(files.imageFile('0000000000000002a'), (() => {
      const bytes = begun('0000000000000002a', 'content of 0000000000000002a');
      const newline = bytes.indexOf(0x0a);
      const header = JSON.parse(bytes.subarray(0, newline).toString()) as { record: { state: string } };
      header.record.state = 'committed';
      return Buffer.concat([Buffer.from(JSON.stringify(header)), bytes.subarray(newline)]);
    })());
    // The third was evicted (its record rewritten, not undoable): its image is not brought back.
    writeFileSync(files.recordFile('0000000000000003a'), '{"state":"committed","record":{"undoable":false}}');
    expect(replayBeginLogs(logDir, 'me', files)).toBe(1);
    expect(stateOf('0000000000000001a')).toBe('committed');
    expect(await readImageFile(files.imageFile('0000000000000001a'))).toEqual(image('content of 0000000000000001a'));
    expect(stateOf('0000000000000002a')).toBe('committed');
    expect(readdirSync(files.records).sort()).toEqual(['0000000000000001a.img', '0000000000000002a.img', '0000000000000003a.json']);
  });

  it('a record rewritten since (an undo claim) still gets its before-image back', async () => {
    const log = deadServersLog();
    await log.append('0000000000000001a', begun('0000000000000001a', 'one'));
    log.commit('0000000000000001a');
    writeFileSync(files.recordFile('0000000000000001a'), '{"state":"committed","record":{"undoable":true,"undoneBy":"u1"}}');
    expect(replayBeginLogs(logDir, 'me', files)).toBe(1);
    expect(await readImageFile(files.imageFile('0000000000000001a'))).toEqual(image('one'));
  });

  it("another server reads a live server's committed changes from its log, before their image files exist", async () => {
    const log = new BeginLog(logDir, { pid: process.pid, instance: 'aaaaaaaaaaaa', host: hostname() }, files, async () => true);
    await log.append('0000000000000001a', begun('0000000000000001a', 'one'));
    await log.append('0000000000000002a', begun('0000000000000002a', 'two'));
    const reader = new ForeignBeginLogs(logDir, 'bbbbbbbbbbbb');
    expect(reader.changed(reader.look())).toBe(true);
    expect([...reader.read().keys()]).toEqual([]);
    log.commit('0000000000000002a');
    const look = reader.look();
    expect(reader.changed(look)).toBe(true);
    const changes = reader.read(look);
    expect([...changes.keys()]).toEqual(['0000000000000002a']);
    expect((changes.get('0000000000000002a')?.stored as { state: string }).state).toBe('committed');
    expect(reader.image(changes.get('0000000000000002a')!)).toEqual(image('two'));
    expect(reader.changed(reader.look())).toBe(false);
    // Its own log is not foreign to it.
    expect([...new ForeignBeginLogs(logDir, 'aaaaaaaaaaaa').read().keys()]).toEqual([]);
    await log.close();
  });

  it('a torn tail (a batch a kill -9 cut short, never acknowledged) ends the log; what came before is replayed', async () => {
    const log = deadServersLog();
    await log.append('0000000000000001a', begun('0000000000000001a', 'one'));
    const [segment] = readdirSync(logDir);
    appendFileSync(join(logDir, segment!), Buffer.concat([Buffer.from('MFJLB\0\0\0\0\0\0\x40'), Buffer.alloc(20)]));
    expect(replayBeginLogs(logDir, 'me', files)).toBe(1);
    expect(stateOf('0000000000000001a')).toBe('pending');
  });

  it('a begin whose id is not well formed (a forged log) writes nothing, and is not read by another server', async () => {
    const log = deadServersLog();
    await log.append('../../escape', begun('../../escape', 'forged'));
    log.commit('../../escape');
    expect(new ForeignBeginLogs(logDir, 'me').read().size).toBe(0);
    expect(replayBeginLogs(logDir, 'me', files)).toBe(0);
    expect(readdirSync(base).sort()).toEqual(['log', 'records']);
    expect(readdirSync(files.records)).toEqual([]);
  });

  it("leaves a live server's log alone", async () => {
    const log = new BeginLog(logDir, { pid: process.ppid, instance: 'live', host: hostname() }, files, async () => true);
    await log.append('0000000000000001a', begun('0000000000000001a', 'one'));
    expect(replayBeginLogs(logDir, 'me', files)).toBe(0);
    expect(readdirSync(logDir)).toHaveLength(1);
    expect(readdirSync(files.records)).toEqual([]);
  });

  it('50 appends made at once share their syncs (group commit: the first alone, the 49 queued behind it in one), and all are durable and replayed', async () => {
    const synced: number[] = [];
    const log = deadServersLog({ sync: async (fd) => void synced.push(fd) });
    const ids = Array.from({ length: 50 }, (_, i) => `00000000000000${String(i).padStart(2, '0')}b`);
    await Promise.all(ids.map((id) => log.append(id, begun(id, id))));
    expect(synced).toHaveLength(2);
    expect(replayBeginLogs(logDir, 'me', files)).toBe(50);
    expect(readdirSync(files.records)).toHaveLength(50);
  });

  it('gives its descriptor back once unused for a while, and appends after it again where it left off', async () => {
    const log = deadServersLog({ idleCloseMs: 20 });
    const logFds = () => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(logDir);
      } catch {
        return false; // the listing's own descriptor, closed by now
      }
    });
    await log.append('0000000000000001c', begun('0000000000000001c', 'one'));
    expect(log.commit('0000000000000001c')).toBe(true);
    expect(logFds()).toHaveLength(1);
    for (const until = Date.now() + 2000; logFds().length > 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(logFds()).toEqual([]);
    await log.append('0000000000000002c', begun('0000000000000002c', 'two'));
    expect(log.commit('0000000000000002c')).toBe(true);
    expect(replayBeginLogs(logDir, 'me', files)).toBe(2);
    expect([stateOf('0000000000000001c'), stateOf('0000000000000002c')]).toEqual(['committed', 'committed']);
    expect(await readImageFile(files.imageFile('0000000000000002c'))).toEqual(image('two'));
  });

  it('a full segment is checkpointed: its image files written out and synced, then it is removed', async () => {
    const settled: string[][] = [];
    const log = new BeginLog(logDir, { pid: process.pid, instance: 'mine', host: hostname() }, files, async (ids) => {
      settled.push([...ids]);
      for (const id of ids) writeFileSync(files.imageFile(id), begun(id, id));
      return true;
    }, { segmentBytes: 4096 });
    await log.append('0000000000000001a', begun('0000000000000001a', 'x'.repeat(5000)));
    // The checkpoint runs after the append that filled the segment; the next append opens another.
    await log.append('0000000000000002a', begun('0000000000000002a', 'small'));
    await log.close();
    expect(settled).toEqual([['0000000000000001a'], ['0000000000000002a']]);
    expect(readdirSync(logDir)).toEqual([]);
  });

  it('a segment whose image files could not all be written (a full disk) is kept for the next start-up', async () => {
    const log = new BeginLog(logDir, { pid: process.pid, instance: 'mine', host: hostname() }, files, async () => false);
    await log.append('0000000000000001a', begun('0000000000000001a', 'one'));
    await log.close();
    expect(readdirSync(logDir)).toHaveLength(1);
    expect(replayBeginLogs(logDir, 'next', files)).toBe(1);
    expect(readdirSync(logDir)).toEqual([]);
  });
});

describe('DiskChangeJournal: a restart finds what only the begin log held', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'journal-replay-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('changes committed by a server that died before writing their image files are listed, committed and undoable', async () => {
    const dir = join(base, 'journal');
    const first = new DiskChangeJournal(dir, new ManualClock());
    const kept = await first.begin(draft({ path: 'kept.txt' }), image('before'));
    await first.commit(kept);
    const open = await first.begin(draft({ path: 'open.txt' }), image('open'));
    // The image files are written after the call: remove them as a kill -9 before that would.
    await first.settled();
    for (const name of readdirSync(join(dir, 'records'))) rmSync(join(dir, 'records', name));
    // A new server on the same journal (the first counts as gone: another instance of this process).
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect((await again.list({})).map((record) => record.id)).toEqual([kept]);
    expect(await again.image(kept)).toEqual(image('before'));
    expect((await again.pending()).map((record) => record.id)).toEqual([open]);
    expect(readdirSync(join(dir, 'log'))).toEqual([]);
  });
});

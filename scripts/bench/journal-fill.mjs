// A change journal pre-filled to a size (the start-up row's), written straight in the disk journal's
// own format through its module (dist/), and cached in the tmp dir between runs: filling 1 GiB
// through the server would take minutes of fsyncs.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Bump when the journal's on-disk format changes: a cached journal of an older format is refilled. */
const FORMAT = 1;
const IMAGE_BYTES = 96 * 1024;

/** The path of a journal directory holding about `bytes` of committed changes with their before-images. */
export async function filledJournal(bytes, { root = 'bench', rootKey = 'bench-root-key' } = {}) {
  const dir = join(tmpdir(), `mcpfs-bench-journal-${FORMAT}-${bytes}`);
  const done = join(dir, 'filled');
  if (existsSync(done) && readFileSync(done, 'utf8') === rootKey) return dir;
  rmSync(dir, { recursive: true, force: true });
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const records = join(partial, 'records');
  for (const sub of ['', 'records', 'claims', 'log']) mkdirSync(join(partial, sub), { recursive: true, mode: 0o700 });
  const { encodeImageFile } = await import(pathToFileURL(join(projectDir, 'dist', 'adapters', 'outbound', 'journal', 'image-files.js')).href);
  const { ChangeIds } = await import(pathToFileURL(join(projectDir, 'dist', 'domain', 'changes', 'change-id.js')).href);
  const ids = new ChangeIds();
  const content = Buffer.alloc(IMAGE_BYTES, 'journal bench line\n');
  const start = Date.now() - 3_600_000;
  const owner = { pid: 1, instance: 'benchfill0000', host: 'bench' };
  const state = (size) => ({ kind: 'file', size, mode: 0o644, sha256: '0'.repeat(64) });
  for (let written = 0, n = 0; written < bytes; n += 1) {
    const time = new Date(start + n);
    const id = ids.next(time);
    const path = `dir${n % 100}/file${n}.txt`;
    const record = { id, time: time.toISOString(), principal: 'bench', session: 'fill', tool: 'write_file', op: 'modify', root, rootKey, path, before: state(IMAGE_BYTES), after: state(IMAGE_BYTES + 1), undoable: true };
    const image = { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content }] };
    const file = encodeImageFile(image, { state: 'committed', record, owner }).bytes;
    writeFileSync(join(records, `${id}.img`), file, { mode: 0o600 });
    written += file.byteLength;
  }
  renameSync(partial, dir);
  writeFileSync(done, rootKey);
  return dir;
}

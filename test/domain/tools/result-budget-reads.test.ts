import { editorWorld } from './editor-harness.js';
import { domainError, fileToolsWorld } from './file-tools-harness.js';

// A tiny budget makes the cuts visible: each '"' costs 2 bytes escaped, each '\n' 2, a letter 1.
describe('the result budget (max_result_bytes)', () => {
  describe('read_file', () => {
    it('cuts a byte window to what fits once escaped and gives the next offset', async () => {
      const { fs, readFile } = fileToolsWorld({ maxResultBytes: 10 });
      fs.seedFile('/ws/q.txt', '""""""""ab');
      const first = await readFile.execute({ root: 'workspace', path: 'q.txt', offset_bytes: 0, limit_bytes: 100 });
      expect(first).toMatchObject({ content: '"""""', truncated: true, next_offset_bytes: 5 });
      const rest = await readFile.execute({ root: 'workspace', path: 'q.txt', offset_bytes: 5, limit_bytes: 100 });
      expect(rest).toMatchObject({ content: '"""ab', truncated: false });
      expect(rest).not.toHaveProperty('next_offset_bytes');
    });

    it('cuts a whole read too, and base64 windows by their encoded length', async () => {
      const { fs, readFile } = fileToolsWorld({ maxResultBytes: 8 });
      fs.seedFile('/ws/t.txt', 'abcdefghij');
      fs.seedFile('/ws/b.bin', new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
      expect(await readFile.execute({ root: 'workspace', path: 't.txt' })).toMatchObject({ content: 'abcdefgh', truncated: true, next_offset_bytes: 8 });
      expect(await readFile.execute({ root: 'workspace', path: 'b.bin' })).toMatchObject({ content: 'AAECAwQF', encoding: 'base64', truncated: true, next_offset_bytes: 6 });
    });

    it('keeps whole lines of a line window and gives the next offset_lines', async () => {
      const { fs, readFile } = fileToolsWorld({ maxResultBytes: 12 });
      fs.seedFile('/ws/l.txt', 'one\ntwo\nthree\nfour\n');
      expect(await readFile.execute({ root: 'workspace', path: 'l.txt', offset_lines: 1, limit_lines: 4 })).toMatchObject({
        content: 'one\ntwo\n',
        truncated: true,
        lines_total: 4,
        next_offset_lines: 3,
      });
    });

    it('refuses a line window whose first line alone does not fit', async () => {
      const { fs, readFile } = fileToolsWorld({ maxResultBytes: 4 });
      fs.seedFile('/ws/l.txt', '"""""\nx\n');
      expect((await domainError(readFile.execute({ root: 'workspace', path: 'l.txt', offset_lines: 1 }))).code).toBe('FILE_TOO_LARGE');
    });
  });

  describe('file_read', () => {
    it('stops at the last whole line that fits, with truncated and next_line', async () => {
      const world = editorWorld({ settings: { maxResultBytes: 12 } });
      world.fs.seedFile('/ws/l.txt', 'one\ntwo\nthree\n');
      const outcome = await world.fileRead.execute({ sessionId: 's1', path: 'l.txt' });
      expect(outcome.result).toEqual({ path: '/workspace/l.txt', content: 'one\ntwo\n', size: 14, binary: false, truncated: true, next_line: 3 });
    });
  });

  describe('view', () => {
    it('leaves out the lines past the budget and names the view_range that continues', async () => {
      const world = editorWorld({ settings: { maxResultBytes: 256 + 24 } });
      world.fs.seedFile('/ws/l.txt', 'one\ntwo\nthree\nfour\n');
      const outcome = await world.view.execute({ sessionId: 's1', path: 'l.txt' });
      expect(outcome.summary).toMatchObject({ truncated: true, start_line: 1, end_line: 2, total_lines: 4 });
      expect(outcome.text).toBe('   1\tone\n   2\ttwo\nTruncated at line 2: the rest does not fit in one result. Continue with view_range [3, 2000].');
    });
  });
});

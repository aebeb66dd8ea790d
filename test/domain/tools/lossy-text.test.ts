import { LossyCheck } from '../../../src/domain/tools/file-text.js';
import { domainError, editorWorld } from './editor-harness.js';

/** "caf\xE9 ok\n": Latin-1 é, not UTF-8; and a line with a real U+FFFD (EF BF BD), which is valid UTF-8. */
const LATIN1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b, 0x0a, 0x62, 0x79, 0x65, 0x0a]);
const REAL_REPLACEMENT_CHAR = new TextEncoder().encode('a \uFFFD b\n');

describe('lossy UTF-8 decoding is marked (file_read, view)', () => {
  it('file_read marks invalid UTF-8 as lossy; valid text, a real U+FFFD included, is not', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/latin1.txt', LATIN1);
    world.fs.seedFile('/ws/real.txt', REAL_REPLACEMENT_CHAR);
    const lossy = await world.fileRead.execute({ sessionId: 's1', path: 'latin1.txt' });
    expect(lossy.result).toMatchObject({ content: 'caf\uFFFD ok\nbye\n', binary: false, lossy: true });
    const exact = await world.fileRead.execute({ sessionId: 's1', path: 'real.txt' });
    expect(exact.result).toEqual({ path: '/workspace/real.txt', content: 'a \uFFFD b\n', size: REAL_REPLACEMENT_CHAR.length, binary: false });
  });

  it('view marks it too and tells the model to use read_file', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/latin1.txt', LATIN1);
    world.fs.seedFile('/ws/real.txt', REAL_REPLACEMENT_CHAR);
    const lossy = await world.view.execute({ sessionId: 's1', path: 'latin1.txt' });
    expect(lossy.summary.lossy).toBe(true);
    expect(lossy.text.split('\n').at(-1)).toMatch(/^\[lossy: \/workspace\/latin1.txt is not valid UTF-8; .*Use read_file for the exact bytes/);
    const exact = await world.view.execute({ sessionId: 's1', path: 'real.txt' });
    expect(exact.summary.lossy).toBeUndefined();
    expect(exact.text).not.toContain('lossy');
  });

  it('LossyCheck counts a real U+FFFD split across chunks as real, and a lone byte as lost', () => {
    const split = new LossyCheck();
    const decoder = new TextDecoder('utf-8');
    for (const chunk of [REAL_REPLACEMENT_CHAR.subarray(0, 3), REAL_REPLACEMENT_CHAR.subarray(3, 4), REAL_REPLACEMENT_CHAR.subarray(4)]) {
      split.bytes(chunk);
      split.text(decoder.decode(chunk, { stream: true }));
    }
    expect(split.lossy).toBe(false);
    const lost = new LossyCheck();
    lost.bytes(LATIN1);
    lost.text(new TextDecoder('utf-8').decode(LATIN1));
    expect(lost.lossy).toBe(true);
  });
});

describe('edits over lossily read content are refused', () => {
  it('create_file over a file with undecodable bytes is refused and changes nothing; over valid text it works', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/latin1.txt', LATIN1);
    await world.view.execute({ sessionId: 's1', path: 'latin1.txt' });
    const error = await domainError(world.createFile.execute({ sessionId: 's1', path: 'latin1.txt', content: 'caf\uFFFD ok\nbye\n' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('holds bytes that are not valid UTF-8');
    expect(world.fs.readBytes('/ws/latin1.txt')).toEqual(LATIN1);
    world.fs.seedFile('/ws/real.txt', REAL_REPLACEMENT_CHAR);
    await world.view.execute({ sessionId: 's1', path: 'real.txt' });
    expect((await world.createFile.execute({ sessionId: 's1', path: 'real.txt', content: 'new\n' })).result.created).toBe(false);
  });

  it('str_replace on a file with undecodable bytes is refused and changes nothing', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/latin1.txt', LATIN1);
    await world.view.execute({ sessionId: 's1', path: 'latin1.txt' });
    const error = await domainError(world.strReplace.execute({ sessionId: 's1', path: 'latin1.txt', old_str: 'bye', new_str: 'ciao' }));
    expect(error.toClientText()).toContain('is not UTF-8 text');
    expect(world.fs.readBytes('/ws/latin1.txt')).toEqual(LATIN1);
  });
});

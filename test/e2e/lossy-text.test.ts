import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callTool } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';

/** Latin-1 "café\n": the é (0xE9) is not UTF-8. */
const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);

describe('lossy text through the real server (HTTP, SDK client)', () => {
  const live = useTestServer();

  beforeAll(async () => {
    await writeFile(join(live.root, 'latin1.txt'), LATIN1);
  });

  it('file_read and view say lossy and point to read_file, whose base64 has the exact bytes', async () => {
    const read = await callTool(live.client, 'file_read', { path: '/workspace/latin1.txt' });
    expect(read.structured).toMatchObject({ content: 'caf\uFFFD\n', binary: false, lossy: true });
    expect(read.content.map((block) => block.text)).toEqual(['caf\uFFFD\n', expect.stringMatching(/^\[lossy: .*Use read_file for the exact bytes/)]);
    const view = await callTool(live.client, 'view', { path: '/workspace/latin1.txt' });
    expect(view.structured).toMatchObject({ type: 'text', lossy: true });
    expect(view.text).toContain('[lossy: /workspace/latin1.txt is not valid UTF-8');
    const exact = await callTool(live.client, 'read_file', { root: 'workspace', path: 'latin1.txt' });
    expect(Buffer.from(exact.structured.content, 'base64')).toEqual(LATIN1);
  });

  it('create_file and str_replace over it are refused and the bytes stay', async () => {
    await callTool(live.client, 'view', { path: '/workspace/latin1.txt' });
    const create = await callTool(live.client, 'create_file', { path: '/workspace/latin1.txt', content: 'caf\uFFFD\n' });
    expect(create.text).toMatch(/^INVALID_ARGUMENT: \/workspace\/latin1.txt holds bytes that are not valid UTF-8/);
    const replace = await callTool(live.client, 'str_replace', { path: '/workspace/latin1.txt', old_str: 'caf', new_str: 'tea' });
    expect(replace.isError).toBe(true);
    expect(await readFile(join(live.root, 'latin1.txt'))).toEqual(LATIN1);
  });
});

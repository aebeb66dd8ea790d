import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { useTestServer } from '../../support/live-server.js';

describe('modern HTTP answers leave in one piece', () => {
  const live = useTestServer();

  it('a JSON answer carries its exact length, not a chunked stream', async () => {
    const answers: Response[] = [];
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      answers.push(response.clone());
      return response;
    };
    const client = new ModernClient({ name: 'answers-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernHttpTransport(new URL(live.server.url), { fetch: recording }));
    try {
      await writeFile(join(live.root, 'small.txt'), 'é'.repeat(2000));
      const read = await client.callTool({ name: 'read_file', arguments: { root: 'workspace', path: 'small.txt' } });
      expect((read.structuredContent as { content: string }).content).toBe('é'.repeat(2000));
      const answer = answers[answers.length - 1];
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('transfer-encoding')).toBeNull();
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(answer.headers.get('content-length')).toBe(String(bytes.length));
    } finally {
      await client.close();
    }
  });
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';

/** What another client saw while a hostile call ran: its slowest read_file, and how many it made. */
export interface Bystander {
  readonly slowestMs: number;
  readonly reads: number;
}

/**
 * Runs `hostile` while `other` reads `path` over and over (one read at a time), until the hostile
 * call has answered: issue 33's "another principal's read_file answers within 200 ms throughout".
 */
export async function whileBystanderReads(
  other: Client,
  path: Record<string, unknown>,
  hostile: () => Promise<ToolCallOutcome>,
): Promise<{ outcome: ToolCallOutcome; elapsedMs: number; bystander: Bystander }> {
  let done = false;
  let slowestMs = 0;
  let reads = 0;
  const reading = (async () => {
    while (!done) {
      const started = Date.now();
      const read = await callTool(other, 'read_file', path);
      if (read.isError) throw new Error(`bystander read_file failed: ${JSON.stringify(read.structured ?? read)}`);
      slowestMs = Math.max(slowestMs, Date.now() - started);
      reads += 1;
    }
  })();
  const started = Date.now();
  let outcome: ToolCallOutcome;
  try {
    outcome = await hostile();
  } finally {
    done = true;
  }
  const elapsedMs = Date.now() - started;
  await reading;
  return { outcome, elapsedMs, bystander: { slowestMs, reads } };
}

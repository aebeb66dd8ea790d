import { TOOLS } from '../support/tools.js';
import { useTestServer } from '../support/live-server.js';

// Every agent turn pays for tools/list: it is kept lean (issue 8), and this measures it.
// Issue 19 §7: under 28 KB with every toolset on (it was 24 KB before issue 19's parameters).
// Issue 30.1: 29 KB. The list sat 11 bytes under 28 KB (28,661); review_changes, the 26th tool, lists in
// 853 bytes (no parameter descriptions it shares with list_changes, its changes' fields not repeated): 29,514.
const TOOLS_LIST_BUDGET_BYTES = 29 * 1024;

describe('tools/list size', () => {
  // Every toolset on: the change journal adds list_changes and undo_changes.
  const live = useTestServer({ journal: true });

  it('lists every catalogued tool, journal on, in at most 29 KB of JSON', async () => {
    const listing = await live.client.listTools();
    expect(listing.tools.map((tool) => tool.name)).toEqual(TOOLS.names);
    const bytes = Buffer.byteLength(JSON.stringify(listing));
    const byTool = listing.tools.map((tool) => `${tool.name}=${Buffer.byteLength(JSON.stringify(tool))}`).join(' ');
    expect({ bytes, byTool }).toEqual({ bytes: expect.any(Number), byTool: expect.any(String) });
    if (bytes > TOOLS_LIST_BUDGET_BYTES) throw new Error(`tools/list is ${bytes} bytes (budget ${TOOLS_LIST_BUDGET_BYTES}): ${byTool}`);
  });

  it('still says, for every tool, what it does and how it fails', async () => {
    const listing = await live.client.listTools();
    for (const tool of listing.tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(60);
      expect(tool.outputSchema).toBeDefined();
    }
  });
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

export interface ToolCallOutcome {
  readonly isError: boolean;
  /** The first text block ('' when there is none). */
  readonly text: string;
  readonly structured?: any;
  readonly content: any[];
}

/**
 * Calls a tool and flattens the answer. A protocol-level McpError (e.g. an unknown tool)
 * becomes an error outcome too, so a test can assert on failures the same way either way.
 */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCallOutcome> {
  try {
    const result = await client.callTool({ name, arguments: args });
    const content = (result.content ?? []) as ToolCallOutcome['content'];
    const firstText = content.find((block) => block.type === 'text');
    return {
      isError: result.isError === true,
      text: firstText?.text ?? '',
      structured: result.structuredContent,
      content,
    };
  } catch (error) {
    if (error instanceof McpError) return { isError: true, text: error.message, content: [] };
    throw error;
  }
}

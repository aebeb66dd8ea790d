import { MCP_TOKENS } from '../adapters/inbound/mcp/mcp-tokens.js';
import { TOKENS as PORT_TOKENS } from '../adapters/shared/tokens.js';

export type { SessionEndListener } from '../adapters/inbound/mcp/mcp-tokens.js';

/**
 * Every token the composition root binds, in one table. Each is declared beside what it names
 * (adapters/shared/tokens.ts for the ports and shared contracts, inbound/mcp/mcp-tokens.ts for the
 * MCP adapter's modules), so adapters import their tokens without climbing to the root.
 */
export const TOKENS = { ...PORT_TOKENS, ...MCP_TOKENS } as const;

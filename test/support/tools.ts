import { TOOL_CATALOG } from '../../src/adapters/inbound/mcp/tool-calls/spec-catalog.js';
import type { ToolCatalog } from '../../src/domain/tool-catalog.js';
import { ToolPolicy } from '../../src/domain/tool-policy.js';

/** The tool catalog the server serves, read from the discovered specs (as main hands it to loadConfig). */
export const TOOLS: ToolCatalog = TOOL_CATALOG;

/** A ToolPolicy over every served tool, as the composition root binds it. */
export const toolPolicy = (): ToolPolicy => new ToolPolicy(TOOLS);

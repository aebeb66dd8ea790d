import type { ToolCatalog } from '../../../../domain/tool-catalog.js';
import { catalogOf } from './tool-registry.js';
import { TOOL_SPECS } from './tool-specs.js';

/**
 * The domain's tool catalog, read from the discovered specs: the composition root binds it, and
 * main and the CLI hand it to loadConfig (config and the domain keep no list of tools).
 */
export const TOOL_CATALOG: ToolCatalog = catalogOf(TOOL_SPECS);

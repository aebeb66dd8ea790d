import { parseCommandLine } from '../../src/cli/command-line.js';
import { rootProbes } from '../../src/composition/root-probes.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { loadConfig as loadWith } from '../../src/config/load-config.js';
import { TOOLS } from './tools.js';

/** loadConfig as main.ts calls it: the command line parsed first, the adapters' root probes asked. */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): AppConfig {
  return loadWith(parseCommandLine(argv, env), argv, env, rootProbes, TOOLS);
}

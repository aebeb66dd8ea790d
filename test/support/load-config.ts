import { rootProbes } from '../../src/composition/root-probes.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { loadConfig as loadWith } from '../../src/config/load-config.js';

/** loadConfig with the adapters' root probes, as main.ts calls it. */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): AppConfig {
  return loadWith(argv, env, rootProbes);
}

import type { AppConfig } from '../../src/config/app-config.js';
import { defaultSessionLimits, defaultSettings } from '../../src/config/schema.js';

/** A config the composition tests build containers from: loopback, defaults, one root `workspace` allowing everything. */
export function compositionConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    allowedHosts: ['127.0.0.1'],
    logLevel: 'error',
    settings: defaultSettings('workspace'),
    sessions: defaultSessionLimits(),
    sessionStoreUrl: '',
    roots: [{ name: 'workspace', path: '/srv/ws', allowedTools: ['*'] }],
    ...overrides,
  };
}

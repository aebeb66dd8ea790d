import { constants } from 'node:fs';
import type { RootProbeResult } from '../../../config/root-probe.js';
import { probeHostRoot } from '../host-root-probe.js';

/** Whether the Node file system can serve `configured` as a root directory (RootProbes.directory). */
export function probeDirectoryRoot(configured: string): RootProbeResult {
  return probeHostRoot(configured, { noun: 'directory', fits: (stats) => stats.isDirectory(), wrongKind: 'not a directory', access: constants.R_OK | constants.X_OK });
}

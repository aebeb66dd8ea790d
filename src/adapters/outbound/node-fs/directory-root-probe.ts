import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import type { RootProbeResult } from '../../../config/root-probe.js';

/** Whether the Node file system can serve `configured` as a root directory (RootProbes.directory). */
export function probeDirectoryRoot(configured: string): RootProbeResult {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(configured).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { problem: `directory does not exist: ${configured}` };
    return { problem: `cannot access ${configured} (${code ?? 'unknown error'})` };
  }
  if (!isDirectory) return { problem: `not a directory: ${configured}` };
  try {
    accessSync(configured, constants.R_OK | constants.X_OK);
  } catch {
    return { problem: `directory is not readable by this process: ${configured}` };
  }
  // Security: every later containment check compares against the real path (NFR-007).
  return { realPath: realpathSync(configured) };
}

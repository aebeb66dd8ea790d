import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import type { RootProbeResult } from '../../../config/root-probe.js';

/**
 * Whether the archive adapter can serve `configured` (RootProbes.archive): a readable regular file.
 * Its headers are read on first use; a file that is not a tar answers IO_ERROR then.
 */
export function probeArchiveRoot(configured: string): RootProbeResult {
  let isFile: boolean;
  try {
    isFile = statSync(configured).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { problem: `archive does not exist: ${configured}` };
    return { problem: `cannot access ${configured} (${code ?? 'unknown error'})` };
  }
  if (!isFile) return { problem: `not a regular file (an archive root is a .tar or .tar.gz file): ${configured}` };
  try {
    accessSync(configured, constants.R_OK);
  } catch {
    return { problem: `archive is not readable by this process: ${configured}` };
  }
  // Security: the archive is named by its real path, which is the root's host path (the routing key).
  return { realPath: realpathSync(configured) };
}

import { constants } from 'node:fs';
import type { RootProbeResult } from '../../../config/root-probe.js';
import { probeHostRoot } from '../host-root-probe.js';

/**
 * Whether the archive adapter can serve `configured` (RootProbes.archive): a readable regular file.
 * Its headers are read on first use; a file that is not a tar answers IO_ERROR then.
 */
export function probeArchiveRoot(configured: string): RootProbeResult {
  return probeHostRoot(configured, {
    noun: 'archive',
    fits: (stats) => stats.isFile(),
    wrongKind: 'not a regular file (an archive root is a .tar or .tar.gz file)',
    access: constants.R_OK,
  });
}

import { accessSync, realpathSync, statSync, type Stats } from 'node:fs';
import type { RootProbeResult } from '../../config/root-probe.js';

/** What one adapter's root must be on the host, and how to say it is not. */
export interface HostRootShape {
  /** 'directory', 'archive': named when the path is missing or unreadable. */
  readonly noun: string;
  readonly fits: (stats: Stats) => boolean;
  /** The problem when it exists but is another kind of entry. */
  readonly wrongKind: string;
  /** The access(2) mode the process needs on it. */
  readonly access: number;
}

/** Whether `configured` is there as `shape` asks, readable by this process; its real path if so. */
export function probeHostRoot(configured: string, shape: HostRootShape): RootProbeResult {
  let fits: boolean;
  try {
    fits = shape.fits(statSync(configured));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { problem: `${shape.noun} does not exist: ${configured}` };
    return { problem: `cannot access ${configured} (${code ?? 'unknown error'})` };
  }
  if (!fits) return { problem: `${shape.wrongKind}: ${configured}` };
  try {
    accessSync(configured, shape.access);
  } catch {
    return { problem: `${shape.noun} is not readable by this process: ${configured}` };
  }
  // Security: every later containment check, and the routing of roots to adapters, compares against the real path (NFR-007).
  return { realPath: realpathSync(configured) };
}

import { probeArchiveRoot } from '../adapters/outbound/archive/archive-root-probe.js';
import { probeDirectoryRoot } from '../adapters/outbound/node-fs/directory-root-probe.js';
import type { RootProbes } from '../config/root-probe.js';

/** The adapters' answers to "is this root there?", for loadConfig. */
export const rootProbes: RootProbes = { directory: probeDirectoryRoot, archive: probeArchiveRoot };

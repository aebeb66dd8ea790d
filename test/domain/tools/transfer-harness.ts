import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import type { RootAccess } from '../../../src/domain/tools/root-access.js';
import { rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';

/** What copy and move run on: roots over an in-memory tree, given as name, host directory and allowlist. */
export interface RootSpec {
  readonly name: string;
  readonly host: string;
  readonly tools: string[];
}

/** 'workspace' at /ws and 'backup' at /backup, both allowing every tool. */
export const WORKSPACE_AND_BACKUP: RootSpec[] = [
  { name: 'workspace', host: '/ws', tools: ['*'] },
  { name: 'backup', host: '/backup', tools: ['*'] },
];

/** A fresh tree holding the (empty) host directories of WORKSPACE_AND_BACKUP. */
export function transferTree(): InMemoryFileSystem {
  const fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
  fs.seedDirectory('/backup');
  return fs;
}

export function accessTo(roots: RootSpec[]): RootAccess {
  return rootAccess(...roots.map((root) => makeRoot(root.name, root.host, root.tools)));
}

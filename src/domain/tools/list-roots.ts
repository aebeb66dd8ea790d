import type { PathPolicy } from '../path-policy.js';

export interface ListRootsResult {
  roots: Array<{ name: string; allowed_tools: string[] }>;
}

/** FR-003: names and allowlists only; always available, so no allowlist check. */
export class ListRoots {
  constructor(private readonly paths: PathPolicy) {}

  async execute(): Promise<ListRootsResult> {
    // Security: NFR-008, the host path of a root never leaves the server.
    return { roots: this.paths.roots.map((root) => ({ name: root.name, allowed_tools: [...root.configuredTools] })) };
  }
}

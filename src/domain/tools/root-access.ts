import type { PathPolicy } from '../path-policy.js';
import { errors } from '../errors.js';
import { displayPath, type Root, type RootPath } from '../roots.js';
import type { ToolPolicy } from '../tool-policy.js';

/**
 * The preamble every root-scoped tool runs, in the spec's order (FR-001, FR-002):
 * the root must exist, the tool must be allowed on it, then the path is confined.
 */
export class RootAccess {
  constructor(
    private readonly paths: PathPolicy,
    private readonly tools: ToolPolicy,
  ) {}

  root(tool: string, rootName: string): Root {
    const root = this.paths.root(rootName);
    this.tools.assertAllowed(tool, root);
    return root;
  }

  /** The roots `tool` may be used on, in configured order (resources/list shows only these). */
  rootsAllowing(tool: string): Root[] {
    return this.paths.roots.filter((root) => root.allowedTools.has(tool));
  }

  /** Whether the root is still served (a client's shared folders may go); see PathPolicy.serves. */
  serves(root: Root): boolean {
    return this.paths.serves(root);
  }

  path(tool: string, rootName: string, rawPath: string): RootPath {
    const root = this.paths.root(rootName);
    this.refuseWriteOnReadOnly(tool, root, rawPath);
    this.tools.assertAllowed(tool, root);
    return this.paths.resolve(root, rawPath);
  }

  /** A write on a read-only root (an archive) says so, naming the root and the (confined) path, rather than only that the tool is not allowed. */
  private refuseWriteOnReadOnly(tool: string, root: Root, rawPath: string): void {
    if (root.readOnly !== true || !this.tools.writes(tool)) return;
    throw errors.readOnlyRoot(root.name, displayPath(this.paths.resolve(root, rawPath)));
  }

  /** copy/move: both roots must exist and allow the tool before either path is looked at. */
  pair(
    tool: string,
    source: { root: string; path: string },
    destination: { root: string; path: string },
  ): { source: RootPath; destination: RootPath } {
    const sourceRoot = this.paths.root(source.root);
    const destinationRoot = this.paths.root(destination.root);
    // A move changes its source too.
    if (tool === 'move') this.refuseWriteOnReadOnly(tool, sourceRoot, source.path);
    this.refuseWriteOnReadOnly(tool, destinationRoot, destination.path);
    this.tools.assertAllowedOnBoth(tool, sourceRoot, destinationRoot);
    return {
      source: this.paths.resolve(sourceRoot, source.path),
      destination: this.paths.resolve(destinationRoot, destination.path),
    };
  }
}

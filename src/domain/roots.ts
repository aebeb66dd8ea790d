/**
 * A configured root after start-up validation. `hostPath` is the realpath of the root
 * directory; it is handed to file system adapters and never shown to a client.
 */
export interface Root {
  readonly name: string;
  readonly hostPath: string;
  /** Tool names allowed on this root; `'*'` was expanded at config time into every known tool. */
  readonly allowedTools: ReadonlySet<string>;
  /** The allowlist exactly as configured (`["*"]` stays `["*"]`), for `list_roots`. */
  readonly configuredTools: readonly string[];
  /** Nothing under it can change (an archive): a tool that writes is refused, naming the path. */
  readonly readOnly?: boolean;
}

/**
 * A path confined to a root, lexically normalised: `segments` never contain '', '.', '..'
 * or a '/', and an empty list means the root itself. Symlinks are NOT resolved yet: the
 * file system adapter resolves them, hop by hop, under the rules of `PathPolicy`.
 */
export interface RootPath {
  readonly root: Root;
  readonly segments: readonly string[];
}

export function displayPath(path: RootPath): string {
  return path.segments.length === 0 ? '.' : path.segments.join('/');
}

export function childPath(parent: RootPath, name: string): RootPath {
  return { root: parent.root, segments: [...parent.segments, name] };
}

export function parentPath(path: RootPath): RootPath {
  return { root: path.root, segments: path.segments.slice(0, -1) };
}

export function baseName(path: RootPath): string {
  return path.segments.length === 0 ? '' : path.segments[path.segments.length - 1];
}

export function isRootItself(path: RootPath): boolean {
  return path.segments.length === 0;
}

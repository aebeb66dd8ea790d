import { type DomainError, errors } from './errors.js';
import { type Principal, type PrincipalContext, UNRESTRICTED_PRINCIPAL, rootsVisibleTo } from './principal.js';
import type { RootsSource } from './ports/roots-source.port.js';
import { displayPath, type Root, type RootPath } from './roots.js';
import { ToolCatalog } from './tool-catalog.js';

/** Linux PATH_MAX and NAME_MAX, in bytes. */
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;
/** PATH_MAX counts the terminating NUL, so a host path may hold one byte less. */
const MAX_HOST_PATH_BYTES = MAX_PATH_BYTES - 1;
/** Like the kernel's MAXSYMLINKS: a chain longer than this is treated as a loop. */
export const MAX_SYMLINK_HOPS = 40;

const utf8 = new TextEncoder();

/** Who is calling (per call), and the tools whose writing ones a read-only principal loses. */
export interface Audience {
  readonly principals: PrincipalContext;
  readonly tools: ToolCatalog;
}

/** The local operator alone: never narrowed, so no tool needs to be known. */
const UNRESTRICTED: Audience = { principals: { current: () => UNRESTRICTED_PRINCIPAL }, tools: new ToolCatalog([]) };

/**
 * The confinement rules (FR-001), pure: root lookup, lexical normalisation of client
 * paths, and the judgement of every symlink hop. The OS mechanics that apply these rules
 * without races live in the file system adapter.
 */
export class PathPolicy {
  /**
   * Cache: one narrowed view per Principal object (a session keeps its principal), dropped with it,
   * and made again when the source's set of roots changes (compared by identity).
   */
  private readonly views = new WeakMap<Principal, RootView>();
  private readonly source: RootsSource;

  constructor(
    roots: readonly Root[] | RootsSource,
    private readonly audience: Audience = UNRESTRICTED,
  ) {
    this.source = isRootsSource(roots) ? roots : { current: () => roots };
  }

  /** The roots the current principal may use, with its narrowed allowlists. */
  get roots(): readonly Root[] {
    return this.view().roots;
  }

  /**
   * Security: a root outside the principal's grant is UNKNOWN_ROOT, exactly like one never configured.
   * With no roots at all (a client that shared no folders) every lookup is NO_ROOTS.
   */
  root(name: string): Root {
    const root = this.view().byName.get(name);
    if (!root) throw this.source.current().length === 0 ? errors.noRoots() : errors.unknownRoot(name);
    return root;
  }

  /** NO_ROOTS when there are no roots at all, for lookups that start above the roots (the editor namespace). */
  assertRootsShared(): void {
    if (this.source.current().length === 0) throw errors.noRoots();
  }

  /** Whether any root exists now, whoever asks (false until a client shares folders). */
  anyRoots(): boolean {
    return this.source.current().length > 0;
  }

  /** Whether this root (same name, same folder) is still served, whoever asks: a client may stop sharing it. */
  serves(root: Root): boolean {
    return this.source.current().some((now) => now.name === root.name && now.hostPath === root.hostPath);
  }

  /** Whether a root of this name exists now, whoever asks (a client's folders may come and go). */
  exists(name: string): boolean {
    return this.source.current().some((root) => root.name === name);
  }

  private view(): RootView {
    const principal = this.audience.principals.current();
    const configured = this.source.current();
    let view = this.views.get(principal);
    if (!view || view.from !== configured) {
      const roots = rootsVisibleTo(principal, configured, this.audience.tools);
      view = { from: configured, roots, byName: new Map(roots.map((root) => [root.name, root])) };
      this.views.set(principal, view);
    }
    return view;
  }

  /**
   * Confines a client path to `root`. Chroot-like: a leading '/' means the root itself,
   * '.' and empty segments vanish, '..' is resolved lexically and may never climb above
   * the root. Everything else is a literal name: '%2e%2e' is a file called '%2e%2e', a
   * backslash is an ordinary character on POSIX, Unicode is not normalised.
   */
  resolve(root: Root, rawPath: string): RootPath {
    // Security: a NUL would truncate the path in the C layer below us; refuse it outright.
    if (rawPath.includes('\0')) throw errors.invalidPath(root.name, printable(rawPath), 'path contains a null byte');
    if (utf8.encode(rawPath).length > MAX_PATH_BYTES) {
      throw errors.invalidPath(root.name, truncateForMessage(rawPath), `path longer than ${MAX_PATH_BYTES} bytes`);
    }
    const segments: string[] = [];
    for (const segment of rawPath.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        // Security: '..' at the top would leave the root (E2E-063).
        if (segments.length === 0) throw errors.outsideRoot(root.name, rawPath);
        segments.pop();
        continue;
      }
      if (utf8.encode(segment).length > MAX_NAME_BYTES) {
        throw errors.invalidPath(root.name, truncateForMessage(rawPath), `a path component is longer than ${MAX_NAME_BYTES} bytes`);
      }
      segments.push(segment);
    }
    const path = { root, segments };
    if (!fitsHostPath(path)) throw hostPathTooLong(path);
    return path;
  }

  /**
   * Where a symlink found in directory `linkDirectory` leads, or null when any part of it
   * leaves the root. An absolute target must lie inside the root's host path (compared
   * component by component); a relative one is joined to the link's directory and may not
   * climb above the root. The result still has to be walked hop by hop by the adapter.
   */
  resolveLinkTarget(linkDirectory: RootPath, linkText: string): RootPath | null {
    return resolveLinkTarget(linkDirectory, linkText);
  }
}

interface RootView {
  /** The source's set this view was made from. */
  readonly from: readonly Root[];
  readonly roots: readonly Root[];
  readonly byName: ReadonlyMap<string, Root>;
}

function isRootsSource(roots: readonly Root[] | RootsSource): roots is RootsSource {
  return !Array.isArray(roots);
}

/** See PathPolicy.resolveLinkTarget; exported for the file system adapters that walk links. */
export function resolveLinkTarget(linkDirectory: RootPath, linkText: string): RootPath | null {
  const { root } = linkDirectory;
  if (linkText.includes('\0')) return null;
  let base: string[];
  let rest: string;
  if (linkText.startsWith('/')) {
    const relative = hostPathInside(root.hostPath, normalizeAbsolute(linkText));
    if (relative === null) return null;
    base = [];
    rest = relative;
  } else {
    base = [...linkDirectory.segments];
    rest = linkText;
  }
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (base.length === 0) return null;
      base.pop();
      continue;
    }
    base.push(segment);
  }
  return { root, segments: base };
}

/**
 * Whether `path`, spelt on the host (root host path, '/', segments), stays within PATH_MAX.
 * The client path alone is not enough: the kernel names what we open by its host path
 * (/proc/self/fd readlink), and an entry deeper than PATH_MAX cannot be checked that way,
 * so nothing may be created there. Adapters apply it to the physical (link-free) path of
 * every entry they create, since children built by tree walks and copies skip resolve().
 */
export function fitsHostPath(path: RootPath): boolean {
  let bytes = utf8.encode(path.root.hostPath.replace(/\/+$/, '')).length;
  for (const segment of path.segments) {
    bytes += 1 + utf8.encode(segment).length;
    if (bytes > MAX_HOST_PATH_BYTES) return false;
  }
  return bytes <= MAX_HOST_PATH_BYTES;
}

/** Where `path` lies on the host, spelt as the kernel spells it (no doubled '/'); for the file system adapters only. */
export function hostPathOf(path: RootPath): string {
  return path.segments.length === 0 ? path.root.hostPath : `${path.root.hostPath.replace(/\/+$/, '')}/${path.segments.join('/')}`;
}

/** INVALID_PATH for a path that fitsHostPath refused; `requested` is the path the client named. */
export function hostPathTooLong(requested: RootPath): DomainError {
  return errors.invalidPath(requested.root.name, truncateForMessage(displayPath(requested)), 'path too long for the host file system');
}

/**
 * Security: containment by path components, never by bare string prefix, so a root
 * `/data/ws` does not admit `/data/ws-evil`. Returns the remainder ('' for the root
 * itself) or null. Both arguments must be absolute and normalised.
 */
export function hostPathInside(rootHostPath: string, candidate: string): string | null {
  if (candidate === rootHostPath) return '';
  const prefix = rootHostPath.endsWith('/') ? rootHostPath : `${rootHostPath}/`;
  if (!candidate.startsWith(prefix)) return null;
  return candidate.slice(prefix.length);
}

/** The in-root path a host path names lexically, or null when it is not inside the root. */
export function hostToRootPath(root: Root, hostPath: string): RootPath | null {
  const relative = hostPathInside(root.hostPath, normalizeAbsolute(hostPath));
  if (relative === null) return null;
  return { root, segments: relative === '' ? [] : relative.split('/') };
}

/** Lexical normalisation of an absolute POSIX path ('..' above '/' stays at '/'). */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

function printable(path: string): string {
  return path.replace(/\0/g, '\\0');
}

function truncateForMessage(path: string): string {
  return path.length > 80 ? `${path.slice(0, 80)}...` : path;
}

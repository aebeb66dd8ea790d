import { DomainError, errors } from './errors.js';
import type { PathPolicy } from './path-policy.js';
import type { Root, RootPath } from './roots.js';
import type { RootAccess } from './tools/root-access.js';

/** Where a namespace path leads: `/` itself (the list of roots) or a path inside one root. */
export type NamespaceTarget =
  | { readonly kind: 'roots'; readonly display: '/' }
  | { readonly kind: 'entry'; readonly path: RootPath; readonly display: string };

export const NAMESPACE_TOP = '/';

/**
 * The single path namespace of the editor and repo tools: every root is a top-level folder
 * (`/workspace/src/main.go` is `src/main.go` in root `workspace`) and `/` lists the roots.
 * Host paths never appear: an absolute host path is just an unknown root here.
 */
export class Namespace {
  constructor(
    private readonly paths: PathPolicy,
    private readonly access: RootAccess,
  ) {}

  get roots(): readonly Root[] {
    return this.paths.roots;
  }

  /**
   * Resolves `rawPath` against the working directory `cwd` (itself a namespace path) and, for
   * an entry inside a root, runs the root-scoped preamble: root lookup, the allowlist of
   * `tool` (null for the always-available change_directory), then PathPolicy's confinement.
   */
  locate(tool: string | null, rawPath: string, cwd: string): NamespaceTarget {
    // Security: a NUL would truncate the path in the C layer below us; refuse it before anything else.
    if (rawPath.includes('\0')) {
      const printable = rawPath.replace(/\0/g, '\\0');
      throw new DomainError('INVALID_PATH', `invalid path: path contains a null byte: ${printable}`, { attemptedPath: printable });
    }
    this.paths.assertRootsShared();
    const names = normalize(rawPath, this.liveDirectory(cwd), (name) => this.paths.roots.some((root) => root.name === name));
    if (names.length === 0) return { kind: 'roots', display: NAMESPACE_TOP };
    const [rootName, ...rest] = names;
    if (!this.paths.roots.some((root) => root.name === rootName)) throw unknownTopLevel(rootName, names, this.paths.roots);
    const path = tool === null
      ? this.paths.resolve(this.paths.root(rootName), rest.join('/'))
      : this.access.path(tool, rootName, rest.join('/'));
    return { kind: 'entry', path, display: namespacePath(path) };
  }

  /** The working directory, or the first root when the root it was in went away (the client's folders changed). */
  private liveDirectory(cwd: string): string {
    const [rootName] = splitNames(cwd);
    const roots = this.paths.roots;
    if (rootName === undefined || roots.length === 0 || this.paths.exists(rootName)) return cwd;
    return `/${roots[0].name}`;
  }
}

/** `/workspace` for a root itself, `/workspace/src/a.go` below it. */
export function namespacePath(path: RootPath): string {
  return ['', path.root.name, ...path.segments].join('/');
}

/**
 * Lexical resolution in the namespace: a relative path continues from `cwd`, '.' and empty
 * segments vanish, '..' steps back. Returns the names below `/` (first = the root).
 */
function normalize(rawPath: string, cwd: string, isRoot: (name: string) => boolean): string[] {
  const names = rawPath.startsWith('/') ? [] : splitNames(cwd);
  for (const segment of rawPath.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') {
      names.push(segment);
      continue;
    }
    // Security: '..' may never leave a root, not even towards `/` or a sibling root; each
    // root's allowlist and confinement only hold while a path stays inside it (E2E-063).
    if (names.length === 1 && isRoot(names[0])) throw errors.outsideRoot(names[0], rawPath);
    if (names.length <= 1) {
      throw new DomainError('ACCESS_DENIED', `path resolves outside the roots: ${rawPath}`, { attemptedPath: rawPath });
    }
    names.pop();
  }
  return names;
}

function splitNames(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '' && segment !== '.');
}

function unknownTopLevel(rootName: string, names: readonly string[], roots: readonly Root[]): DomainError {
  const known = roots.map((root) => `/${root.name}`).join(', ');
  return new DomainError(
    'NOT_FOUND',
    `path not found: /${names.join('/')} (no root named ${rootName}; paths start with a root: ${known}; view / lists them)`,
    { attemptedPath: `/${names.join('/')}` },
  );
}

/**
 * Port errors name the in-root path and root; the namespace tools speak in namespace paths.
 * Codes about the target itself get a namespace message (the original log details are kept
 * for the security log); the rest keep the adapter's client-safe message.
 */
export function inNamespace(error: unknown, display: string): unknown {
  if (!(error instanceof DomainError)) return error;
  const message = TARGET_MESSAGES[error.code];
  return message ? new DomainError(error.code, message(display), error.logDetails) : error;
}

const TARGET_MESSAGES: Partial<Record<DomainError['code'], (display: string) => string>> = {
  NOT_FOUND: (display) => `path not found: ${display}`,
  ACCESS_DENIED: (display) => `path resolves outside root boundary: ${display}`,
  IS_A_DIRECTORY: (display) => `path is a directory: ${display}`,
  NOT_A_FILE: (display) => `not a regular file: ${display}`,
};

/** Runs a port call and translates its DomainErrors into the namespace's terms. */
export async function atNamespacePath<T>(display: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw inNamespace(error, display);
  }
}

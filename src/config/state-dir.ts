import { accessSync, constants, existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { RootConfig } from './app-config.js';
import { ConfigError } from './config-error.js';

/**
 * Where the private state directory (in-flight write records, and the journal's default home) may
 * go, best first:
 *   1. $XDG_STATE_HOME/mcp-filesystem       (when set and absolute, as the XDG spec asks)
 *   2. $HOME/.local/state/mcp-filesystem    (the XDG default; HOME, else the passwd entry)
 *   3. <os temp dir>/mcp-fs-inflight-<uid>  (the old default, and the fallback)
 * The user's state directory comes first: it survives a reboot (a journal must outlive restarts, and
 * the temp dir is often a tmpfs, aged by tmpfiles), no other user can make it before us, and a
 * server of /tmp (a common scratch root) keeps its journal. The temp dir stays as the fallback for a
 * server of $HOME, or a user without a writable home.
 */
export function stateDirCandidates(env: NodeJS.ProcessEnv): StateDirCandidate[] {
  const candidates: StateDirCandidate[] = [];
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) candidates.push({ dir: join(xdg, 'mcp-filesystem'), variable: 'XDG_STATE_HOME' });
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : userInfo().homedir;
  if (isAbsolute(home)) candidates.push({ dir: join(home, '.local', 'state', 'mcp-filesystem'), variable: 'HOME' });
  candidates.push({ dir: join(temporaryDirectory(env), `mcp-fs-inflight-${userInfo().uid}`), variable: 'TMPDIR' });
  return candidates;
}

/** A place the state directory may go, and the environment variable that puts it there. */
export interface StateDirCandidate {
  readonly dir: string;
  readonly variable: 'XDG_STATE_HOME' | 'HOME' | 'TMPDIR';
}

export interface StateDirChoice {
  /** The private state directory: the first candidate outside every root, else the last one (the temp dir). */
  readonly dir: string;
  /** The environment variable `dir` comes from (named when it is refused). */
  readonly variable: StateDirCandidate['variable'];
  /** Whether `dir` is outside every root (false: none was, and a journal must not default into it). */
  readonly outsideRoots: boolean;
  readonly tried: readonly string[];
}

/**
 * Security: the state directory holds records naming host paths, and the journal's before-images;
 * inside a root a tool could read or forge them. So the first candidate that overlaps no root (and
 * could be made: its nearest existing ancestor is a directory we may write) wins. A candidate that
 * exists but is not private is still chosen: the adapters then refuse to start, which says why.
 */
export function chooseStateDir(env: NodeJS.ProcessEnv, roots: readonly RootConfig[], clientRoots = false): StateDirChoice {
  const candidates = stateDirCandidates(env);
  // Security: with the client's folders as roots (stdio, no DIR), the roots come after start-up and a
  // folder that overlaps the state directory is refused (ClientRoots). A client sharing $HOME (an
  // editor opened on it) is likelier than one sharing the temp dir, so the temp dir goes first there.
  const tried = clientRoots ? [candidates[candidates.length - 1], ...candidates.slice(0, -1)] : candidates;
  const usable = tried.find((candidate) => makeable(candidate.dir) && overlappingRoot(realpathOfNearest(candidate.dir), roots) === undefined);
  const chosen = usable ?? tried[tried.length - 1];
  refuseLink(chosen.dir, chosen.variable, 'the state directory');
  return { dir: chosen.dir, variable: chosen.variable, outsideRoots: usable !== undefined, tried: tried.map((candidate) => candidate.dir) };
}

/**
 * Security: a private directory that is a link can be pointed elsewhere by whoever made it (in the
 * shared temp dir, another user), and every check made through it (owner, mode, outside the roots)
 * then speaks of its target of the moment. So `dir` must be a real directory; refused here, before
 * anything is made inside it. `key` names the setting or variable the operator changes.
 */
export function refuseLink(dir: string, key: string, what: string): void {
  let isLink: boolean;
  try {
    isLink = lstatSync(dir).isSymbolicLink();
  } catch {
    return; // Not there yet: made on first use, as a directory.
  }
  if (isLink) throw new ConfigError(key, `${what} ${dir} is a symbolic link; it must be a real directory: replace the link with a directory, or set ${key} elsewhere`);
}

/**
 * The root `dir` (a real path) overlaps, if any: `dir` is the root or inside it (a tool reaches it),
 * or the root is inside `dir` (a tool of that root reaches part of it).
 */
export function overlappingRoot(dir: string, roots: readonly RootConfig[]): RootConfig | undefined {
  return roots.find((root) => isWithin(dir, root.path) || isWithin(root.path, dir));
}

/** `path` is `dir` or inside it (both real paths). */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || dir === '/' || path.startsWith(`${dir}/`);
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended (the directory is made on first use). */
export function realpathOfNearest(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realpathOfNearest(parent), basename(path));
  }
}

/** A directory already, or creatable: its nearest existing ancestor is a directory this process may write. */
function makeable(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    const parent = dirname(path);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === path) return false;
    return existsSync(parent) ? writableDirectory(parent) : makeable(parent);
  }
}

function writableDirectory(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** os.tmpdir()'s rule, read from `env` (the environment loadConfig was given). */
function temporaryDirectory(env: NodeJS.ProcessEnv): string {
  const named = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return named.length > 1 && named.endsWith('/') ? named.slice(0, -1) : named;
}

import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { RootConfig } from './app-config.js';

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
export function stateDirCandidates(env: NodeJS.ProcessEnv): string[] {
  const candidates: string[] = [];
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) candidates.push(join(xdg, 'mcp-filesystem'));
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : userInfo().homedir;
  if (isAbsolute(home)) candidates.push(join(home, '.local', 'state', 'mcp-filesystem'));
  candidates.push(join(temporaryDirectory(env), `mcp-fs-inflight-${userInfo().uid}`));
  return candidates;
}

export interface StateDirChoice {
  /** The private state directory: the first candidate outside every root, else the last one (the temp dir). */
  readonly dir: string;
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
  const usable = tried.find((candidate) => makeable(candidate) && overlappingRoot(realpathOfNearest(candidate), roots) === undefined);
  return usable === undefined ? { dir: tried[tried.length - 1], outsideRoots: false, tried } : { dir: usable, outsideRoots: true, tried };
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

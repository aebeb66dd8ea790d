import { compareCodePoints } from '../code-point-order.js';
import { DomainError, errors } from '../errors.js';
import { ListingCache } from '../listing-cache.js';
import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import type { RootAccess } from './root-access.js';

/** Completion lists the entries of a directory: what list_folder permits, it permits. */
export const COMPLETION_TOOL = 'list_folder';

/** The MCP limit on values in one completion answer. */
export const MAX_COMPLETIONS = 100;

export interface Completions {
  readonly values: string[];
  readonly total: number;
  readonly hasMore: boolean;
}

const NOTHING: Completions = { values: [], total: 0, hasMore: false };

/**
 * Completion of mcpfs://{root}/{+path} (issue 18): root names, and paths one directory level at a
 * time. Confined and permitted exactly like list_folder, since it goes through the same RootAccess
 * and FileSystemPort.readDirectory. A directory that is not there (yet) or is not a directory
 * completes nothing: the user is still typing. A path leading outside is ACCESS_DENIED, as ever.
 */
export class CompletePath {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
    private readonly listings = new ListingCache<readonly Completable[]>(),
  ) {}

  /** The names of the roots that allow list_folder starting with `prefix`, in configured order. */
  roots(prefix: string): Completions {
    return limited(this.access.rootsAllowing(COMPLETION_TOOL).map((root) => root.name).filter((name) => name.startsWith(prefix)));
  }

  /**
   * `value` up to its last '/' names a directory of the root (the root itself without one); the
   * rest is the start of an entry name. Values are whole paths (the directory part kept), with '/'
   * after directories and links to directories inside the root. Without `rootName`, the only root
   * there is. Throws UNKNOWN_ROOT, TOOL_NOT_ALLOWED, ACCESS_DENIED, INVALID_PATH, INVALID_ARGUMENT.
   */
  async paths(rootName: string | undefined, value: string): Promise<Completions> {
    const root = rootName ?? this.onlyRoot();
    const cut = value.lastIndexOf('/') + 1;
    const directory = value.slice(0, cut);
    const start = value.slice(cut);
    let entries: readonly Completable[];
    try {
      const folder = this.access.path(COMPLETION_TOOL, root, directory === '' ? '.' : directory);
      entries = await this.listings.get(await this.fs.directoryVersion(folder), async () => completable(await this.fs.readDirectory(folder)), withoutLinks);
    } catch (error) {
      if (error instanceof DomainError && QUIET.has(error.code)) return NOTHING;
      throw error;
    }
    return limited(entries.filter((entry) => entry.name.startsWith(start)).map((entry) => `${directory}${entry.shown}`));
  }

  private onlyRoot(): string {
    const roots = this.access.rootsAllowing(COMPLETION_TOOL);
    if (roots.length === 1) return roots[0].name;
    throw errors.invalidArgument('completing a path needs the root: pass context.arguments.root (one of the names list_roots gives)');
  }
}

/** An entry as completion shows it: its name, and with '/' when it leads to a directory. */
interface Completable {
  readonly name: string;
  readonly shown: string;
  readonly link: boolean;
}

/** A folder's entries in the order values are given (code points, with the '/' of directories). */
function completable(entries: readonly EntryStat[]): Completable[] {
  return entries
    .map((entry) => ({ name: entry.name, shown: `${entry.name}${leadsToDirectory(entry) ? '/' : ''}`, link: entry.kind === 'symlink' }))
    .sort((a, b) => compareCodePoints(a.shown, b.shown));
}

/**
 * Security: a link's '/' says where it led when it was described, and its target can change (or
 * come to lead outside) without the folder changing: a listing with a link is never kept.
 */
function withoutLinks(entries: readonly Completable[]): boolean {
  return !entries.some((entry) => entry.link);
}

/** Errors that mean "nothing here to complete" rather than a bad request. */
const QUIET: ReadonlySet<string> = new Set(['NOT_FOUND', 'NOT_A_DIRECTORY']);

function limited(values: string[]): Completions {
  return { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS };
}

/** A directory, or a link to one inside the root (a link leading outside is a plain entry). */
export function leadsToDirectory(entry: EntryStat): boolean {
  if (entry.kind === 'directory') return true;
  return entry.kind === 'symlink' && entry.link?.resolution === 'inside' && entry.link.targetKind === 'directory';
}

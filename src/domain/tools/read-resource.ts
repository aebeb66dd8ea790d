import { compareCodePoints } from '../code-point-order.js';
import { DomainError, errors, inRoot } from '../errors.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import { displayPath } from '../roots.js';
import { escapedLength } from '../result-budget.js';
import type { Settings } from '../settings.js';
import { leadsToDirectory } from './complete-path.js';
import type { ReadFile } from './read-file.js';
import type { RootAccess } from './root-access.js';

/** Resources are read-only views of files: the read_file permission and its limits govern them. */
export const RESOURCE_TOOL = 'read_file';

export type ResourceContent =
  | { readonly kind: 'text'; readonly path: string; readonly text: string }
  | { readonly kind: 'binary'; readonly path: string; readonly base64: string }
  | { readonly kind: 'directory'; readonly path: string; readonly entries: readonly ResourceEntry[]; readonly omitted: number };

export interface ResourceEntry {
  readonly name: string;
  readonly directory: boolean;
}

/**
 * Files as MCP resources (issue 8): a whole file, or a directory's listing, of a root that
 * allows read_file. A file goes through ReadFile itself, so confinement, symlink rules,
 * max_full_read_size and the result budget are the same as a whole read_file; a file that the
 * budget would cut is refused, since a resource cannot be paged.
 */
export class ReadResource {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
    private readonly readFile: ReadFile,
    private readonly settings: Settings,
  ) {}

  /** Root names a client may browse. */
  roots(): string[] {
    return this.access.rootsAllowing(RESOURCE_TOOL).map((root) => root.name);
  }

  async read(rootName: string, rawPath: string): Promise<ResourceContent> {
    const target = this.access.path(RESOURCE_TOOL, rootName, rawPath);
    const shown = displayPath(target);
    const entry = await this.fs.stat(target, { followSymlinks: true });
    if (!entry) throw errors.notFound('file', target.root.name, shown);
    if (entry.kind === 'directory') {
      const entries = (await this.fs.readDirectory(target))
        .map((child) => ({ name: child.name, directory: leadsToDirectory(child) }))
        .sort((a, b) => compareCodePoints(a.name, b.name));
      const shownEntries = this.withinBudget(entries);
      return { kind: 'directory', path: shown, entries: shownEntries, omitted: entries.length - shownEntries.length };
    }
    const file = await this.readFile.execute({ root: rootName, path: rawPath });
    if (file.truncated) {
      throw new DomainError(
        'FILE_TOO_LARGE',
        `${file.path} does not fit in one resource (max_result_bytes, counted JSON-escaped); read it with read_file in parts${inRoot(target.root.name)}`,
        { root: target.root.name, attemptedPath: file.path },
      );
    }
    return file.encoding === 'base64'
      ? { kind: 'binary', path: file.path, base64: file.content }
      : { kind: 'text', path: file.path, text: file.content };
  }

  /** The leading entries whose lines (name, '/', escaped newline) fit the result budget, with room for a note. */
  private withinBudget(entries: ResourceEntry[]): ResourceEntry[] {
    const budget = this.settings.maxResultBytes - LISTING_NOTE_RESERVE;
    let used = 0;
    for (let i = 0; i < entries.length; i += 1) {
      used += escapedLength(entries[i].name) + 3;
      if (used > budget) return entries.slice(0, i);
    }
    return entries;
  }
}

const LISTING_NOTE_RESERVE = 256;

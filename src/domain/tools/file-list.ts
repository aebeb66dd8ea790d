import type { EditSessions } from '../edit-session.js';
import { atNamespacePath, type Namespace, namespacePath } from '../namespace.js';
import type { EntryKind, EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import type { RegexEngine } from '../ports/regex-engine.port.js';
import { childPath, type RootPath } from '../roots.js';
import { namingArgument } from '../search/argument-errors.js';
import { compileGlob } from '../search/glob-pattern.js';
import { directoryRulesFor, ignoreMode } from '../search/ignore-rules.js';
import { IgnoreRuleCache } from '../search/ignore-rule-cache.js';
import type { Settings } from '../settings.js';
import { assertDirectory } from './editor-files.js';
import { describeLinkTarget } from './view-directory.js';
import { compareCodePoints } from '../code-point-order.js';

export const TOOL = 'file_list';

export interface FileListInput {
  readonly sessionId: string;
  /** Defaults to the working directory. */
  readonly path?: string;
  /** Glob matched against each entry's name. */
  readonly pattern?: string;
  /** Issue 19: gitignore or none; default search.ignore. */
  readonly ignore?: string;
}

export interface FileListEntry {
  readonly name: string;
  /** Namespace path of the entry, usable as `path` in every namespace tool. */
  readonly path: string;
  readonly type: EntryKind;
  readonly size: number;
  readonly modified_at: string;
  /** Where a symlink points: a namespace path, or a marker when it leaves its root (see describeLinkTarget). */
  readonly target?: string;
}

export interface FileListResult {
  readonly path: string;
  readonly entries: FileListEntry[];
  readonly count: number;
  /** With ignore rules, in a directory: entries left out by them. */
  readonly ignored?: number;
}

/** The immediate entries of a directory (`/` lists the roots), optionally filtered by a glob. */
export class FileList {
  constructor(
    private readonly namespace: Namespace,
    private readonly sessions: EditSessions,
    private readonly files: FileSystemPort,
    private readonly regex: RegexEngine,
    private readonly settings?: Settings,
    /** Compiled ignore files; the composition root shares one (with the logger) between the tools. */
    private readonly ignoreCache = new IgnoreRuleCache(),
  ) {}

  async execute(input: FileListInput): Promise<FileListResult> {
    const matches = this.nameFilter(input.pattern);
    const mode = ignoreMode(input.ignore, this.settings?.search.ignore);
    const session = this.sessions.for(input.sessionId);
    const target = this.namespace.locate(TOOL, input.path ?? '.', await session.workingDirectory());
    if (target.kind === 'roots') {
      const roots = (await this.roots()).filter((entry) => matches(entry.name)).sort((a, b) => compareCodePoints(a.name, b.name));
      return { path: target.display, entries: roots, count: roots.length };
    }
    let entries = await this.directory(target.path, target.display);
    let ignored: number | undefined;
    if (mode === 'gitignore') {
      // The directory named is listed even when ignored; its entries are judged as a walk of it would judge them.
      const rules = await directoryRulesFor(this.files, target.path, this.ignoreCache);
      entries = entries.filter((entry) => !rules.prune(entry.name, entry.type));
      ignored = rules.ignored;
    }
    const shown = entries.filter((entry) => matches(entry.name)).sort((a, b) => compareCodePoints(a.name, b.name));
    return ignored === undefined ? { path: target.display, entries: shown, count: shown.length } : { path: target.display, entries: shown, count: shown.length, ignored };
  }

  /** `*` matches dotfiles too: an agent should not miss `.env.example` because of a shell habit. */
  private nameFilter(pattern: string | undefined): (name: string) => boolean {
    if (pattern === undefined || pattern === '') return () => true;
    return namingArgument('pattern', () => compileGlob(pattern, this.regex));
  }

  private async roots(): Promise<FileListEntry[]> {
    const entries: FileListEntry[] = [];
    for (const root of this.namespace.roots) {
      const path: RootPath = { root, segments: [] };
      const stat = await this.files.stat(path, { followSymlinks: true });
      if (stat) entries.push(toEntry({ ...stat, name: root.name }, path));
    }
    return entries;
  }

  private async directory(path: RootPath, display: string): Promise<FileListEntry[]> {
    await assertDirectory(this.files, path, display);
    const entries = await atNamespacePath(display, () => this.files.readDirectory(path));
    return Promise.all(entries.map(async (entry) => {
      const listed = toEntry(entry, childPath(path, entry.name));
      if (entry.kind !== 'symlink' || !entry.link) return listed;
      return { ...listed, target: await describeLinkTarget(this.files, path, entry.link, this.namespace.roots) };
    }));
  }
}

function toEntry(stat: EntryStat, path: RootPath): FileListEntry {
  return { name: stat.name, path: namespacePath(path), type: stat.kind, size: stat.size, modified_at: stat.modifiedAt.toISOString() };
}

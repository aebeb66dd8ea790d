import type { ChangeContents } from '../../../../domain/changes/change-contents.js';
import type { Snapshots } from '../../../../domain/changes/snapshots.js';
import type { EditSessions } from '../../../../domain/edit-session.js';
import type { Namespace } from '../../../../domain/namespace.js';
import type { PathPolicy } from '../../../../domain/path-policy.js';
import type { ChangeJournal, JournalObserver } from '../../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../../domain/ports/clock.port.js';
import type { ContentHasher } from '../../../../domain/ports/content-hasher.port.js';
import type { FileSystemPort } from '../../../../domain/ports/file-system.port.js';
import type { RegexEngine } from '../../../../domain/ports/regex-engine.port.js';
import type { PrincipalContext } from '../../../../domain/principal.js';
import type { IgnoreRuleCache } from '../../../../domain/search/ignore-rule-cache.js';
import type { SearchIndexes } from '../../../../domain/search/search-indexes.js';
import type { TreeSnapshots } from '../../../../domain/search/tree-snapshots.js';
import type { Settings } from '../../../../domain/settings.js';
import type { ToolFacts } from '../../../../domain/tool-facts.js';
import type { ToolPolicy } from '../../../../domain/tool-policy.js';
import type { ReadFile } from '../../../../domain/tools/read-file.js';
import type { RootAccess } from '../../../../domain/tools/root-access.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * What a use case factory may build its use case from: the ports and shared domain services. The
 * composition root resolves each one when a factory first reads it, so the editor's namespace or the
 * journal are only asked for by the tools of toolsets that are served.
 */
export interface ToolServices {
  readonly files: FileSystemPort;
  readonly settings: Settings;
  readonly paths: PathPolicy;
  readonly access: RootAccess;
  readonly toolPolicy: ToolPolicy;
  readonly clock: Clock;
  readonly regex: RegexEngine;
  readonly hasher: ContentHasher;
  readonly ignoreCache: IgnoreRuleCache;
  readonly searchIndexes: SearchIndexes;
  /** Walk snapshots grep and glob answer from, kept exact by a tree watch (issue 31.2). */
  readonly treeSnapshots: TreeSnapshots;
  /** The editor and repo toolsets' /<root>/... namespace and per-session edit state. */
  readonly namespace: Namespace;
  readonly sessions: EditSessions;
  /** read_file's use case, which read_files (and the resources) read through. */
  readonly readFile: ReadFile;
  /** The change journal's tools (journal on only). */
  readonly journal: ChangeJournal;
  readonly snapshots: Snapshots;
  readonly changeContents: ChangeContents;
  readonly principals: PrincipalContext;
  readonly journalObserver?: JournalObserver;
}

/** A use case class: the key its single instance is bound under. */
export type UseCaseClass<U> = abstract new (...args: never[]) => U;

/**
 * One tool, from one file: its name, its facts (toolset, who may use it, read-only: the domain's
 * catalog is built from them), its place in tools/list, the use case factory, and the MCP
 * definition (title, description, schemas, annotations, handler) built on that use case. The
 * composition root registers every spec in one loop.
 */
export interface ToolSpec<U = unknown> {
  readonly name: string;
  readonly facts: ToolFacts;
  /** Its place within its toolset in tools/list (toolsets in TOOLSETS order): lower first, unique per toolset. */
  readonly rank: number;
  readonly useCase: UseCaseClass<U>;
  create(services: ToolServices): U;
  definition(useCase: U, settings: Settings): ToolDefinition;
}

/** Identity helper that ties the factory, the key and the definition to one use case type. */
export function toolSpec<U>(spec: ToolSpec<U>): ToolSpec {
  return spec as unknown as ToolSpec;
}

import type { EditSession, EditSessions } from '../edit-session.js';
import type { Namespace } from '../namespace.js';
import type { ContentHasher } from '../ports/content-hasher.port.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';
import type { Settings } from '../settings.js';
import { locateEntry } from './editor-files.js';

/**
 * What the editor and repo use cases that read or write one file (view, str_replace, create_file,
 * file_read, file_write) are built from: the /<root>/... namespace, the per-session edit state,
 * the file system, the hasher and the settings.
 */
export abstract class NamespaceUseCase {
  constructor(
    protected readonly namespace: Namespace,
    protected readonly sessions: EditSessions,
    protected readonly files: FileSystemPort,
    protected readonly hasher: ContentHasher,
    protected readonly settings: Settings,
  ) {}

  /** The caller's session and the file `rawPath` names from its working directory (never `/`). */
  protected async locateFile(tool: string, sessionId: string, rawPath: string): Promise<{ session: EditSession; path: RootPath; display: string }> {
    const session = this.sessions.for(sessionId);
    return { session, ...locateEntry(this.namespace, tool, rawPath, await session.workingDirectory()) };
  }
}

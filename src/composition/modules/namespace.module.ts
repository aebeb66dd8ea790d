import { ContainerModule } from 'inversify';
import { EditSessions } from '../../domain/edit-session.js';
import { Namespace } from '../../domain/namespace.js';
import type { PathPolicy } from '../../domain/path-policy.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { SessionStatePort } from '../../domain/ports/session-state.port.js';
import type { Settings } from '../../domain/settings.js';
import { RootAccess } from '../../domain/tools/root-access.js';
import { TOKENS } from '../tokens.js';

/** What the editor and repo toolsets share: the /<root>/... namespace and per-session edit state. */
export const namespaceModule = new ContainerModule(({ bind }) => {
  // The store (in memory or Redis) is chosen by the composition root from session_store.url;
  // it drops a session's state when the SessionRegistry ends the session.
  bind(TOKENS.SessionState).toService(TOKENS.SessionStore);

  bind(Namespace)
    .toResolvedValue((paths: PathPolicy, access: RootAccess) => new Namespace(paths, access), [TOKENS.PathPolicy, RootAccess])
    .inSingletonScope();
  bind(EditSessions)
    .toResolvedValue(
      (store: SessionStatePort, files: FileSystemPort, settings: Settings) => new EditSessions(store, files, settings),
      [TOKENS.SessionState, TOKENS.FileSystem, TOKENS.Settings],
    )
    .inSingletonScope();
});

import { ContainerModule, type ServiceIdentifier } from 'inversify';
import { InMemorySessionState } from '../../adapters/outbound/in-memory-session-state.js';
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
  bind(TOKENS.SessionState).to(InMemorySessionState).inSingletonScope();
  // The server tells every SessionEndListener when a session ends; the store then drops its state.
  bind(TOKENS.SessionEndListener).toService(TOKENS.SessionState as ServiceIdentifier<InMemorySessionState>);

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

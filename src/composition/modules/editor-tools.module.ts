import { ContainerModule } from 'inversify';
import { changeDirectoryTool } from '../../adapters/inbound/mcp/tools/change-directory.tool.js';
import { createFileTool } from '../../adapters/inbound/mcp/tools/create-file.tool.js';
import { fileListTool } from '../../adapters/inbound/mcp/tools/file-list.tool.js';
import { fileReadTool } from '../../adapters/inbound/mcp/tools/file-read.tool.js';
import { fileWriteTool } from '../../adapters/inbound/mcp/tools/file-write.tool.js';
import { strReplaceTool } from '../../adapters/inbound/mcp/tools/str-replace.tool.js';
import { viewTool } from '../../adapters/inbound/mcp/tools/view.tool.js';
import { EditSessions } from '../../domain/edit-session.js';
import { Namespace } from '../../domain/namespace.js';
import type { PathPolicy } from '../../domain/path-policy.js';
import type { ContentHasher } from '../../domain/ports/content-hasher.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { RegexEngine } from '../../domain/ports/regex-engine.port.js';
import type { SessionStatePort } from '../../domain/ports/session-state.port.js';
import type { Settings } from '../../domain/settings.js';
import { ChangeDirectory } from '../../domain/tools/change-directory.js';
import { CreateFile } from '../../domain/tools/create-file.js';
import { FileList } from '../../domain/tools/file-list.js';
import { FileRead } from '../../domain/tools/file-read.js';
import { FileWrite } from '../../domain/tools/file-write.js';
import { RootAccess } from '../../domain/tools/root-access.js';
import { StrReplace } from '../../domain/tools/str-replace.js';
import { View } from '../../domain/tools/view.js';
import { TOKENS } from '../tokens.js';

type EditorUseCase = View | StrReplace | CreateFile | FileRead | FileWrite;
type EditorUseCaseClass<T extends EditorUseCase> = new (
  namespace: Namespace,
  sessions: EditSessions,
  files: FileSystemPort,
  hasher: ContentHasher,
  settings: Settings,
) => T;

/** The editor tools (view, str_replace, create_file), the repo tools (file_*) and change_directory. */
export const editorToolsModule = new ContainerModule(({ bind }) => {
  // The store (in memory or Redis) is chosen by the composition root from session_store.url.
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

  const bindEditor = <T extends EditorUseCase>(useCase: EditorUseCaseClass<T>) =>
    bind(useCase)
      .toResolvedValue(
        (namespace: Namespace, sessions: EditSessions, files: FileSystemPort, hasher: ContentHasher, settings: Settings) =>
          new useCase(namespace, sessions, files, hasher, settings),
        [Namespace, EditSessions, TOKENS.FileSystem, TOKENS.ContentHasher, TOKENS.Settings],
      )
      .inSingletonScope();
  bindEditor(View);
  bindEditor(StrReplace);
  bindEditor(CreateFile);
  bindEditor(FileRead);
  bindEditor(FileWrite);
  bind(FileList)
    .toResolvedValue(
      (namespace: Namespace, sessions: EditSessions, files: FileSystemPort, regex: RegexEngine) => new FileList(namespace, sessions, files, regex),
      [Namespace, EditSessions, TOKENS.FileSystem, TOKENS.RegexEngine],
    )
    .inSingletonScope();
  bind(ChangeDirectory)
    .toResolvedValue(
      (namespace: Namespace, sessions: EditSessions, files: FileSystemPort) => new ChangeDirectory(namespace, sessions, files),
      [Namespace, EditSessions, TOKENS.FileSystem],
    )
    .inSingletonScope();

  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: View, settings: Settings) => viewTool(useCase, settings), [View, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: StrReplace) => strReplaceTool(useCase), [StrReplace]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: CreateFile, settings: Settings) => createFileTool(useCase, settings), [CreateFile, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileRead, settings: Settings) => fileReadTool(useCase, settings), [FileRead, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileWrite, settings: Settings) => fileWriteTool(useCase, settings), [FileWrite, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileList) => fileListTool(useCase), [FileList]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: ChangeDirectory) => changeDirectoryTool(useCase), [ChangeDirectory]);
});

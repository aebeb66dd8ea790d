import { ContainerModule } from 'inversify';
import { EditSessions } from '../../domain/edit-session.js';
import { Namespace } from '../../domain/namespace.js';
import type { ContentHasher } from '../../domain/ports/content-hasher.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { Settings } from '../../domain/settings.js';
import { TOKENS } from '../tokens.js';
import { fileListTool } from '../../adapters/inbound/mcp/tools/file-list.tool.js';
import { fileReadTool } from '../../adapters/inbound/mcp/tools/file-read.tool.js';
import { fileWriteTool } from '../../adapters/inbound/mcp/tools/file-write.tool.js';
import type { RegexEngine } from '../../domain/ports/regex-engine.port.js';
import { FileList } from '../../domain/tools/file-list.js';
import { FileRead } from '../../domain/tools/file-read.js';
import { FileWrite } from '../../domain/tools/file-write.js';

type RepoUseCase = FileRead | FileWrite;
type RepoUseCaseClass<T extends RepoUseCase> = new (
  namespace: Namespace,
  sessions: EditSessions,
  files: FileSystemPort,
  hasher: ContentHasher,
  settings: Settings,
) => T;

/** The repo toolset: file_read, file_write, file_list (needs namespaceModule). */
export const repoToolsModule = new ContainerModule(({ bind }) => {
  const bindRepo = <T extends RepoUseCase>(useCase: RepoUseCaseClass<T>) =>
    bind(useCase)
      .toResolvedValue(
        (namespace: Namespace, sessions: EditSessions, files: FileSystemPort, hasher: ContentHasher, settings: Settings) =>
          new useCase(namespace, sessions, files, hasher, settings),
        [Namespace, EditSessions, TOKENS.FileSystem, TOKENS.ContentHasher, TOKENS.Settings],
      )
      .inSingletonScope();
  bindRepo(FileRead);
  bindRepo(FileWrite);
  bind(FileList)
    .toResolvedValue(
      (namespace: Namespace, sessions: EditSessions, files: FileSystemPort, regex: RegexEngine) => new FileList(namespace, sessions, files, regex),
      [Namespace, EditSessions, TOKENS.FileSystem, TOKENS.RegexEngine],
    )
    .inSingletonScope();

  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileRead, settings: Settings) => fileReadTool(useCase, settings), [FileRead, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileWrite, settings: Settings) => fileWriteTool(useCase, settings), [FileWrite, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileList) => fileListTool(useCase), [FileList]);
});

import { IgnoreRuleCache } from '../../domain/search/ignore-rule-cache.js';
import { ContainerModule } from 'inversify';
import { EditSessions } from '../../domain/edit-session.js';
import { Namespace } from '../../domain/namespace.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { Settings } from '../../domain/settings.js';
import { TOKENS } from '../tokens.js';
import { bindNamespaceUseCase } from './namespace.module.js';
import { fileListTool } from '../../adapters/inbound/mcp/tools/file-list.tool.js';
import { fileReadTool } from '../../adapters/inbound/mcp/tools/file-read.tool.js';
import { fileWriteTool } from '../../adapters/inbound/mcp/tools/file-write.tool.js';
import type { RegexEngine } from '../../domain/ports/regex-engine.port.js';
import { FileList } from '../../domain/tools/file-list.js';
import { FileRead } from '../../domain/tools/file-read.js';
import { FileWrite } from '../../domain/tools/file-write.js';

/** The repo toolset: file_read, file_write, file_list (needs namespaceModule). */
export const repoToolsModule = new ContainerModule(({ bind }) => {
  bindNamespaceUseCase(bind, FileRead);
  bindNamespaceUseCase(bind, FileWrite);
  bind(FileList)
    .toResolvedValue(
      (namespace: Namespace, sessions: EditSessions, files: FileSystemPort, regex: RegexEngine, settings: Settings, ignoreCache: IgnoreRuleCache) =>
        new FileList(namespace, sessions, files, regex, settings, ignoreCache),
      [Namespace, EditSessions, TOKENS.FileSystem, TOKENS.RegexEngine, TOKENS.Settings, IgnoreRuleCache],
    )
    .inSingletonScope();

  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileRead, settings: Settings) => fileReadTool(useCase, settings), [FileRead, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileWrite, settings: Settings) => fileWriteTool(useCase, settings), [FileWrite, TOKENS.Settings]);
    bind(TOKENS.ToolDefinition).toResolvedValue((useCase: FileList, settings: Settings) => fileListTool(useCase, settings), [FileList, TOKENS.Settings]);
});

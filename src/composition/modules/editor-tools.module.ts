import { ContainerModule } from 'inversify';
import { EditSessions } from '../../domain/edit-session.js';
import { Namespace } from '../../domain/namespace.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { Settings } from '../../domain/settings.js';
import { TOKENS } from '../tokens.js';
import { bindNamespaceUseCase } from './namespace.module.js';
import { changeDirectoryTool } from '../../adapters/inbound/mcp/tools/change-directory.tool.js';
import { createFileTool } from '../../adapters/inbound/mcp/tools/create-file.tool.js';
import { strReplaceTool } from '../../adapters/inbound/mcp/tools/str-replace.tool.js';
import { viewTool } from '../../adapters/inbound/mcp/tools/view.tool.js';
import { ChangeDirectory } from '../../domain/tools/change-directory.js';
import { CreateFile } from '../../domain/tools/create-file.js';
import { StrReplace } from '../../domain/tools/str-replace.js';
import { View } from '../../domain/tools/view.js';

/** The editor toolset: view, str_replace, create_file and change_directory (needs namespaceModule). */
export const editorToolsModule = new ContainerModule(({ bind }) => {
  bindNamespaceUseCase(bind, View);
  bindNamespaceUseCase(bind, StrReplace);
  bindNamespaceUseCase(bind, CreateFile);
  bind(ChangeDirectory)
    .toResolvedValue(
      (namespace: Namespace, sessions: EditSessions, files: FileSystemPort) => new ChangeDirectory(namespace, sessions, files),
      [Namespace, EditSessions, TOKENS.FileSystem],
    )
    .inSingletonScope();

  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: View, settings: Settings) => viewTool(useCase, settings), [View, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: StrReplace) => strReplaceTool(useCase), [StrReplace]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: CreateFile, settings: Settings) => createFileTool(useCase, settings), [CreateFile, TOKENS.Settings]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: ChangeDirectory) => changeDirectoryTool(useCase), [ChangeDirectory]);
});

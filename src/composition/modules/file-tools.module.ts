import { IgnoreRuleCache } from '../../domain/search/ignore-rule-cache.js';
import { ContainerModule } from 'inversify';
import { createFolderTool } from '../../adapters/inbound/mcp/tools/create-folder.tool.js';
import { hashFileTool } from '../../adapters/inbound/mcp/tools/hash-file.tool.js';
import { listFolderTool } from '../../adapters/inbound/mcp/tools/list-folder.tool.js';
import { listRootsTool } from '../../adapters/inbound/mcp/tools/list-roots.tool.js';
import { patchFileTool } from '../../adapters/inbound/mcp/tools/patch-file.tool.js';
import { permissionsFileTool } from '../../adapters/inbound/mcp/tools/permissions-file.tool.js';
import { readFileTool } from '../../adapters/inbound/mcp/tools/read-file.tool.js';
import { readFilesTool } from '../../adapters/inbound/mcp/tools/read-files.tool.js';
import { removeFileTool } from '../../adapters/inbound/mcp/tools/remove-file.tool.js';
import { removeFolderTool } from '../../adapters/inbound/mcp/tools/remove-folder.tool.js';
import { statFileTool } from '../../adapters/inbound/mcp/tools/stat-file.tool.js';
import { writeFileTool } from '../../adapters/inbound/mcp/tools/write-file.tool.js';
import type { PathPolicy } from '../../domain/path-policy.js';
import type { ContentHasher } from '../../domain/ports/content-hasher.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { Settings } from '../../domain/settings.js';
import { CreateFolder } from '../../domain/tools/create-folder.js';
import { HashFile } from '../../domain/tools/hash-file.js';
import { ListFolder } from '../../domain/tools/list-folder.js';
import { ListRoots } from '../../domain/tools/list-roots.js';
import { PatchFile } from '../../domain/tools/patch-file.js';
import { PermissionsFile } from '../../domain/tools/permissions-file.js';
import { ReadFile } from '../../domain/tools/read-file.js';
import { ReadFiles } from '../../domain/tools/read-files.js';
import { RemoveFile } from '../../domain/tools/remove-file.js';
import { RemoveFolder } from '../../domain/tools/remove-folder.js';
import { RootAccess } from '../../domain/tools/root-access.js';
import { StatFile } from '../../domain/tools/stat-file.js';
import { WriteFile } from '../../domain/tools/write-file.js';
import { TOKENS } from '../tokens.js';

type AccessAndFiles = RemoveFile | CreateFolder | RemoveFolder | StatFile | PermissionsFile;

/** list_roots and the single-root file tools (FR-003..FR-013). */
export const fileToolsModule = new ContainerModule(({ bind }) => {
  const bindAccessAndFiles = <T extends AccessAndFiles>(useCase: new (access: RootAccess, files: FileSystemPort) => T) =>
    bind(useCase)
      .toResolvedValue((access: RootAccess, files: FileSystemPort) => new useCase(access, files), [RootAccess, TOKENS.FileSystem])
      .inSingletonScope();

  bind(ListRoots)
    .toResolvedValue((paths: PathPolicy) => new ListRoots(paths), [TOKENS.PathPolicy])
    .inSingletonScope();
  bind(WriteFile)
    .toResolvedValue(
      (access: RootAccess, files: FileSystemPort, settings: Settings) => new WriteFile(access, files, settings),
      [RootAccess, TOKENS.FileSystem, TOKENS.Settings],
    )
    .inSingletonScope();
  bindAccessAndFiles(RemoveFile);
  bindAccessAndFiles(CreateFolder);
  bindAccessAndFiles(RemoveFolder);
  bindAccessAndFiles(StatFile);
  bindAccessAndFiles(PermissionsFile);
  bind(ListFolder)
    .toResolvedValue(
      (access: RootAccess, files: FileSystemPort, settings: Settings, ignoreCache: IgnoreRuleCache) => new ListFolder(access, files, settings, ignoreCache),
      [RootAccess, TOKENS.FileSystem, TOKENS.Settings, IgnoreRuleCache],
    )
    .inSingletonScope();
  bind(ReadFile)
    .toResolvedValue(
      (access: RootAccess, files: FileSystemPort, settings: Settings) => new ReadFile(access, files, settings),
      [RootAccess, TOKENS.FileSystem, TOKENS.Settings],
    )
    .inSingletonScope();
  bind(ReadFiles)
    .toResolvedValue(
      (access: RootAccess, readFile: ReadFile, settings: Settings) => new ReadFiles(access, readFile, settings),
      [RootAccess, ReadFile, TOKENS.Settings],
    )
    .inSingletonScope();
  bind(PatchFile)
    .toResolvedValue(
      (access: RootAccess, files: FileSystemPort, settings: Settings) => new PatchFile(access, files, settings),
      [RootAccess, TOKENS.FileSystem, TOKENS.Settings],
    )
    .inSingletonScope();
  bind(HashFile)
    .toResolvedValue(
      (access: RootAccess, files: FileSystemPort, hasher: ContentHasher) => new HashFile(access, files, hasher),
      [RootAccess, TOKENS.FileSystem, TOKENS.ContentHasher],
    )
    .inSingletonScope();

  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: ListRoots) => listRootsTool(useCase), [ListRoots]);
  bind(TOKENS.ToolDefinition).toResolvedValue(
    (useCase: ListFolder, settings: Settings) => listFolderTool(useCase, settings),
    [ListFolder, TOKENS.Settings],
  );
  bind(TOKENS.ToolDefinition).toResolvedValue(
    (useCase: ReadFile, settings: Settings) => readFileTool(useCase, settings),
    [ReadFile, TOKENS.Settings],
  );
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: ReadFiles) => readFilesTool(useCase), [ReadFiles]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: WriteFile) => writeFileTool(useCase), [WriteFile]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: RemoveFile) => removeFileTool(useCase), [RemoveFile]);
  bind(TOKENS.ToolDefinition).toResolvedValue(
    (useCase: PatchFile, settings: Settings) => patchFileTool(useCase, settings),
    [PatchFile, TOKENS.Settings],
  );
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: CreateFolder) => createFolderTool(useCase), [CreateFolder]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: RemoveFolder) => removeFolderTool(useCase), [RemoveFolder]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: StatFile) => statFileTool(useCase), [StatFile]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: HashFile) => hashFileTool(useCase), [HashFile]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: PermissionsFile) => permissionsFileTool(useCase), [PermissionsFile]);
});

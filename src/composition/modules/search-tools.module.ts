import { IgnoreRuleCache } from '../../domain/search/ignore-rule-cache.js';
import { ContainerModule } from 'inversify';
import { copyTool } from '../../adapters/inbound/mcp/tools/copy.tool.js';
import { globTool } from '../../adapters/inbound/mcp/tools/glob.tool.js';
import { grepTool } from '../../adapters/inbound/mcp/tools/grep.tool.js';
import { moveTool } from '../../adapters/inbound/mcp/tools/move.tool.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { RegexEngine } from '../../domain/ports/regex-engine.port.js';
import type { Settings } from '../../domain/settings.js';
import { Copy } from '../../domain/tools/copy.js';
import { Glob } from '../../domain/tools/glob.js';
import { Grep } from '../../domain/tools/grep.js';
import { Move } from '../../domain/tools/move.js';
import { RootAccess } from '../../domain/tools/root-access.js';
import { TOKENS } from '../tokens.js';

/** copy, move, grep and glob: the tools that walk trees. */
export const searchToolsModule = new ContainerModule(({ bind }) => {
  bind(Copy)
    .toResolvedValue((fs: FileSystemPort, access: RootAccess) => new Copy(fs, access), [TOKENS.FileSystem, RootAccess])
    .inSingletonScope();
  bind(Move)
    .toResolvedValue((fs: FileSystemPort, access: RootAccess) => new Move(fs, access), [TOKENS.FileSystem, RootAccess])
    .inSingletonScope();
  bind(Grep)
    .toResolvedValue(
      (fs: FileSystemPort, clock: Clock, regex: RegexEngine, settings: Settings, access: RootAccess, ignoreCache: IgnoreRuleCache) =>
        new Grep(fs, clock, regex, settings, access, ignoreCache),
      [TOKENS.FileSystem, TOKENS.Clock, TOKENS.RegexEngine, TOKENS.Settings, RootAccess, IgnoreRuleCache],
    )
    .inSingletonScope();
  bind(Glob)
    .toResolvedValue(
      (fs: FileSystemPort, clock: Clock, regex: RegexEngine, settings: Settings, access: RootAccess, ignoreCache: IgnoreRuleCache) =>
        new Glob(fs, clock, regex, settings, access, ignoreCache),
      [TOKENS.FileSystem, TOKENS.Clock, TOKENS.RegexEngine, TOKENS.Settings, RootAccess, IgnoreRuleCache],
    )
    .inSingletonScope();

  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: Copy) => copyTool(useCase), [Copy]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: Move) => moveTool(useCase), [Move]);
  bind(TOKENS.ToolDefinition).toResolvedValue(
    (useCase: Grep, settings: Settings) => grepTool(useCase, settings),
    [Grep, TOKENS.Settings],
  );
  bind(TOKENS.ToolDefinition).toResolvedValue(
    (useCase: Glob, settings: Settings) => globTool(useCase, settings.search),
    [Glob, TOKENS.Settings],
  );
});

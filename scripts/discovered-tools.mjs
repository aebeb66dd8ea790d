import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The tool registry (tool-calls/tool-specs.ts) finds every `*.tool.ts` in tools/ with readdir and a
// dynamic import, which a bundle cannot follow. Here the module becomes static imports of the same
// files (read at bundle time, so a new tool file needs no list either), handed to the same check.
const TOOL_SPECS_MODULE = /\/src\/adapters\/inbound\/mcp\/tool-calls\/tool-specs\.ts$/;
export const discoveredTools = {
  name: 'discovered-tools',
  setup(build) {
    build.onLoad({ filter: TOOL_SPECS_MODULE }, (args) => {
      const resolveDir = dirname(args.path);
      const files = readdirSync(join(resolveDir, '../tools')).filter((file) => /\.tool\.ts$/.test(file)).sort();
      if (files.length === 0) throw new Error('discovered-tools: no *.tool.ts file in tools/');
      const contents = [
        "import { specsFromModules } from './tool-registry.ts';",
        ...files.map((file, index) => `import * as tool${index} from '../tools/${file}';`),
        `export const TOOL_SPECS = specsFromModules([${files.map((file, index) => `['${file}', tool${index}]`).join(', ')}]);`,
      ].join('\n');
      return { contents, loader: 'ts', resolveDir };
    });
  },
};

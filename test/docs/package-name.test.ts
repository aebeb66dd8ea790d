import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Issue 27: `mcp-filesystem` on the npm registry is an unrelated package. Our package has a name of
// its own, and no document shows a command that would fetch that other package and run it with
// access to the user's files. The command the package installs stays `mcp-filesystem`.
const OURS = 'mcp-sandboxed-filesystem';
const STRANGER = 'mcp-filesystem';

/** `mcp-filesystem` as a package argument (maybe with a version), not a part of a longer name or a path. */
const THE_NAME = String.raw`mcp-filesystem(?:@[\w.^~-]*)?(?![\w./-])`;
const OPTIONS = String.raw`(?:\s+-{1,2}[\w-]+)*\s+`;
/** A command that fetches `mcp-filesystem` from the registry: npx or npm install/exec of that name, or a client config running npx with it. */
const FETCHES_STRANGER = [
  new RegExp(String.raw`\bnpx${OPTIONS}${THE_NAME}`),
  new RegExp(String.raw`\bnpm\s+(?:exec|x|install|i|add)${OPTIONS}${THE_NAME}`),
  new RegExp(String.raw`"command":\s*"npx",\s*"args":\s*\[\s*(?:"-[^"]*",\s*)*"${THE_NAME}"`),
];

async function documents(): Promise<string[]> {
  const docs = (await readdir(join(process.cwd(), 'docs'), { recursive: true })).filter((name) => name.endsWith('.md')).map((name) => join('docs', name));
  return ['README.md', 'Dockerfile', ...docs];
}

/** The places in `text` that would fetch the stranger's package, as `line: text`. */
function strangerFetches(text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => FETCHES_STRANGER.some((pattern) => pattern.test(line)))
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

describe('the package name', () => {
  it('package.json and package-lock.json name our own package, whose command is mcp-filesystem', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { name: string; bin: Record<string, string> };
    const lock = JSON.parse(await readFile('package-lock.json', 'utf8')) as { name: string; packages: Record<string, { name?: string }> };
    expect(pkg.name).not.toBe(STRANGER);
    expect(pkg.name).toBe(OURS);
    expect(Object.keys(pkg.bin)).toEqual([STRANGER]);
    expect([lock.name, lock.packages[''].name]).toEqual([OURS, OURS]);
  });

  it('no README, doc or Dockerfile shows a command that would fetch the unrelated mcp-filesystem package', async () => {
    const found: string[] = [];
    for (const file of await documents()) for (const hit of strangerFetches(await readFile(file, 'utf8'))) found.push(`${file}:${hit}`);
    expect(found).toEqual([]);
  });

  it('recognises such commands (and leaves our own name, the installed command and other packages alone)', () => {
    expect(strangerFetches('Claude Code: `claude mcp add filesystem -- npx -y mcp-filesystem /path`')).toHaveLength(1);
    expect(strangerFetches('{ "command": "npx", "args": ["-y", "mcp-filesystem"] }')).toHaveLength(1);
    expect(strangerFetches('npm install -g mcp-filesystem')).toHaveLength(1);
    expect(strangerFetches('npm i mcp-filesystem@latest')).toHaveLength(1);
    expect(strangerFetches('npx -y mcp-sandboxed-filesystem /path')).toEqual([]);
    expect(strangerFetches('npm install -g ./mcp-sandboxed-filesystem-0.1.0.tgz')).toEqual([]);
    expect(strangerFetches('{ "command": "mcp-filesystem", "args": ["/path/to/project"] }')).toEqual([]);
    expect(strangerFetches('`npx @modelcontextprotocol/inspector`, then run mcp-filesystem --http')).toEqual([]);
  });
});

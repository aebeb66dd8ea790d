import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const ROOT = process.cwd();
const SRC = join(ROOT, 'src');
const DOMAIN = join(SRC, 'domain');
const CRUISER = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CRUISE_TIMEOUT_MS = 180_000;

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

/** Runs dependency-cruiser with the project's rules over `<cwd>/src` and answers its violations as "rule: from -> to". */
function cruise(cwd: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const args = [CRUISER, '--config', CONFIG, '--output-type', 'json', 'src'];
    // A broken rule makes depcruise exit non-zero; its JSON report is on stdout either way.
    execFile(process.execPath, args, { cwd, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
        resolve(report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort());
      } catch {
        reject(new Error(`dependency-cruiser gave no report: ${error?.message ?? ''} ${stderr}`));
      }
    });
  });
}

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}

describe('architecture: the layer rules of .dependency-cruiser.cjs', () => {
  it('src breaks none of them', async () => {
    expect(await cruise(ROOT)).toEqual([]);
  }, CRUISE_TIMEOUT_MS);

  it('a tree that breaks each rule on purpose fails every one, and only where it breaks them', async () => {
    expect(await cruise(join(ROOT, 'test/fixtures/layers'))).toEqual([
      'adapters-not-to-composition-or-main: src/adapters/inbound/handler.ts -> src/composition/tokens.ts',
      'config-not-to-cli: src/config/load.ts -> src/cli/args.ts',
      'domain-is-pure: src/domain/port.ts -> src/adapters/outbound/store.ts',
      'domain-is-pure: src/domain/pure.ts -> ../../../node_modules/reflect-metadata/Reflect.js',
      'domain-is-pure: src/domain/pure.ts -> fs',
      'domain-is-pure: src/domain/pure.ts -> path',
      'inbound-not-to-outbound: src/adapters/inbound/handler.ts -> src/adapters/outbound/store.ts',
      'no-cycles: src/composition/first.ts -> src/composition/second.ts',
      'outbound-not-to-inbound: src/adapters/outbound/store.ts -> src/adapters/inbound/observer.ts',
    ]);
  }, CRUISE_TIMEOUT_MS);
});

describe('architecture: what the import rules do not see', () => {
  it('the domain carries no decorators', async () => {
    const decorated: string[] = [];
    for (const file of await sourceFiles(DOMAIN)) {
      if (/^\s*@[A-Za-z]+\(/m.test(await readFile(file, 'utf8'))) decorated.push(relative(SRC, file));
    }
    expect(decorated).toEqual([]);
  });

  it('container.get appears only in main.ts (the composition root hands out nothing else)', async () => {
    const users: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      if (/\bcontainer\.get(All)?(Async)?\(/.test(await readFile(file, 'utf8'))) users.push(relative(SRC, file));
    }
    expect(users).toEqual(['main.ts']);
  });
});

import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import type { LogFields, Logger } from '../../../src/domain/ports/logger.port.js';
import { IgnoreRuleCache, MAX_IGNORE_FILE_BYTES, MAX_IGNORE_PATTERN_CHARS, MAX_IGNORE_PATTERN_WILDCARDS } from '../../../src/domain/search/ignore-rule-cache.js';
import { Glob } from '../../../src/domain/tools/glob.js';
import { rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { searchSettings, SteppingClock } from '../tools/search-harness.js';

// Issue 33 §1: ignore files compiled once per version, and bounded in size and pattern shape.
class RecordingLogger implements Logger {
  readonly warnings: { message: string; fields?: LogFields }[] = [];
  debug(): void {}
  info(): void {}
  warn(message: string, fields?: LogFields): void {
    this.warnings.push({ message, fields });
  }
  error(): void {}
}

let fs: InMemoryFileSystem;
let logger: RecordingLogger;
let cache: IgnoreRuleCache;

function glob(path = '.') {
  const access = rootAccess(makeRoot('workspace', '/ws', ['*']));
  const tool = new Glob(fs, new SteppingClock(0), new Re2RegexEngine(), searchSettings(1000), access, cache);
  return tool.execute({ root: 'workspace', pattern: '**', type_filter: 'file', path }).then((result) => result.matches.map((match) => match.path));
}

beforeEach(() => {
  fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
  logger = new RecordingLogger();
  cache = new IgnoreRuleCache(logger);
});

describe('IgnoreRuleCache', () => {
  it('compiles an unchanged rule file once, in the walk and above a start, and again once it changes', async () => {
    fs.seedFile('/ws/.gitignore', '*.log\n');
    fs.seedFile('/ws/sub/.gitignore', '*.tmp\n');
    for (const path of ['a.txt', 'a.log', 'sub/b.tmp', 'sub/b.txt']) fs.seedFile(`/ws/${path}`, 'x');

    expect(await glob()).toEqual(['.gitignore', 'a.txt', 'sub/.gitignore', 'sub/b.txt']);
    expect(cache.compilations).toBe(2);
    expect(await glob()).toEqual(['.gitignore', 'a.txt', 'sub/.gitignore', 'sub/b.txt']);
    expect(await glob('sub')).toEqual(['sub/.gitignore', 'sub/b.txt']);
    // The root's file, read from above the start, is the same version: nothing compiled again.
    expect(cache.compilations).toBe(2);

    fs.seedFile('/ws/.gitignore', '*.txt\n');
    expect(await glob()).toEqual(['.gitignore', 'a.log', 'sub/.gitignore']);
    expect(cache.compilations).toBe(3);
  });

  it('skips a pattern too long or with too many wildcards, with a warning, and keeps the others', async () => {
    const hostile = '*a'.repeat(2000);
    const manyWildcards = '*b'.repeat(MAX_IGNORE_PATTERN_WILDCARDS + 1);
    const long = 'c'.repeat(MAX_IGNORE_PATTERN_CHARS + 1);
    fs.seedFile('/ws/.gitignore', [hostile, manyWildcards, long, '*.log'].join('\n'));
    for (const name of ['a', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', long, 'x.log', 'y.txt']) fs.seedFile(`/ws/${name}`, 'x');

    const started = Date.now();
    expect(await glob()).toEqual(['.gitignore', 'a', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', long, 'y.txt']);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(logger.warnings).toEqual([
      { message: expect.stringContaining('patterns skipped'), fields: expect.objectContaining({ file: '.gitignore', skipped: 3 }) },
    ]);
  });

  it('does not read a rule file over the size limit, and says so for one above the start', async () => {
    fs.seedFile('/ws/.gitignore', `*.log\n${'#'.repeat(MAX_IGNORE_FILE_BYTES)}\n`);
    for (const path of ['x.log', 'sub/y.log']) fs.seedFile(`/ws/${path}`, 'x');

    expect(await glob()).toEqual(['.gitignore', 'sub/y.log', 'x.log']);
    expect(await glob('sub')).toEqual(['sub/y.log']);
    expect(cache.compilations).toBe(0);
    expect(logger.warnings).toEqual([{ message: expect.stringContaining('larger than the limit'), fields: expect.objectContaining({ file: '.gitignore' }) }]);
  });
});

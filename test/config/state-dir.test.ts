import { mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/load-config.js';
import { loadConfig } from '../support/load-config.js';

// The private state directory and the journal's default home (issue 20): the first of
// $XDG_STATE_HOME/mcp-filesystem, $HOME/.local/state/mcp-filesystem, <temp>/mcp-fs-inflight-<uid>
// outside every root. Each test gives all three a home of its own under `dir`.
let dir: string;
let env: NodeJS.ProcessEnv;
let xdg: string;
let home: string;
let temp: string;
const uid = userInfo().uid;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-state-')));
  [xdg, home, temp] = [join(dir, 'xdg'), join(dir, 'home'), join(dir, 'tmp')];
  for (const made of [xdg, home, temp, join(dir, 'elsewhere')]) await mkdir(made);
  env = { XDG_STATE_HOME: xdg, HOME: home, TMPDIR: temp };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `mcp-filesystem DIR...` with `env`. */
function load(dirs: string[], extra: NodeJS.ProcessEnv = {}) {
  return loadConfig(dirs, { ...env, ...extra });
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('the default private state directory and journal', () => {
  it('is $XDG_STATE_HOME/mcp-filesystem, the journal in journal/ inside it, for a server of the temp dir', () => {
    const config = load([temp]);
    expect(config.stateDir).toBe(join(xdg, 'mcp-filesystem'));
    expect(config.journal?.dir).toBe(join(xdg, 'mcp-filesystem', 'journal'));
  });

  it('is ~/.local/state/mcp-filesystem when XDG_STATE_HOME is unset, relative, or inside a root', () => {
    const expected = join(home, '.local', 'state', 'mcp-filesystem');
    expect(load([temp], { XDG_STATE_HOME: undefined }).journal?.dir).toBe(join(expected, 'journal'));
    expect(load([temp], { XDG_STATE_HOME: 'relative/state' }).journal?.dir).toBe(join(expected, 'journal'));
    const config = load([xdg]);
    expect(config.stateDir).toBe(expected);
    expect(config.journal?.dir).toBe(join(expected, 'journal'));
  });

  it('falls back to <temp>/mcp-fs-inflight-<uid> for a server of $HOME (and of the XDG state home)', () => {
    const expected = join(temp, `mcp-fs-inflight-${uid}`);
    const config = load([home, xdg]);
    expect(config.stateDir).toBe(expected);
    expect(config.journal?.dir).toBe(join(expected, 'journal'));
  });

  it('skips a candidate that cannot be made (a file where its parent should be)', async () => {
    await writeFile(join(dir, 'a-file'), 'x');
    const config = load([dir + '/elsewhere'], { XDG_STATE_HOME: join(dir, 'a-file', 'state') });
    expect(config.journal?.dir).toBe(join(home, '.local', 'state', 'mcp-filesystem', 'journal'));
  });

  it('skips a candidate that holds a root (a tool of that root would reach part of it)', async () => {
    const nested = join(xdg, 'mcp-filesystem', 'journal', 'records');
    await mkdir(nested, { recursive: true });
    expect(load([nested]).journal?.dir).toBe(join(home, '.local', 'state', 'mcp-filesystem', 'journal'));
  });

  it('refuses to start when every candidate is inside a root, saying how to fix it; with the journal off it starts', () => {
    const message = refusal(() => load(['/']));
    expect(message).toMatch(/^config error: journal\.dir: the default journal directory would be inside a root \(tried /);
    expect(message).toContain(join(xdg, 'mcp-filesystem'));
    expect(message).toContain('set journal.dir (MCP_FS_JOURNAL_DIR) to a directory outside every root, or journal.enabled: false (MCP_FS_JOURNAL_ENABLED=false)');
    expect(refusal(() => load([xdg, home, temp]))).toMatch(/^config error: journal\.dir: the default journal directory would be inside a root/);

    const off = load([xdg, home, temp], { MCP_FS_JOURNAL_ENABLED: 'false' });
    expect(off.journal).toBeUndefined();
    expect(off.stateDir).toBe(join(temp, `mcp-fs-inflight-${uid}`));
    // Security: nor is the search index kept there (a tool of that root would read or forge it).
    expect(off.searchIndexDir).toBeUndefined();
    expect(load([dir + '/elsewhere']).searchIndexDir).toBe(join(xdg, 'mcp-filesystem', 'index'));
  });

  it('takes an explicit MCP_FS_JOURNAL_DIR outside the roots as given, and never moves one inside a root: it refuses, naming the setting', () => {
    const explicit = join(dir, 'elsewhere', 'journal');
    expect(load([temp], { MCP_FS_JOURNAL_DIR: explicit }).journal?.dir).toBe(explicit);
    expect(refusal(() => load([temp], { MCP_FS_JOURNAL_DIR: join(temp, 'journal') }))).toBe(
      `config error: journal.dir: ${join(temp, 'journal')} is inside root "tmp"; put the journal outside every root`,
    );
    expect(refusal(() => load([join(dir, 'elsewhere')], { MCP_FS_JOURNAL_DIR: dir }))).toBe(
      `config error: journal.dir: ${dir} holds root "elsewhere"; put the journal outside every root`,
    );
  });

  // Security: a link can be re-pointed by whoever made it; every check made through it speaks of its target of the moment.
  it('refuses a state directory that is a link, naming the variable, before making anything in its target', async () => {
    const target = join(dir, 'elsewhere');
    await symlink(target, join(xdg, 'mcp-filesystem'));
    expect(refusal(() => load([temp]))).toBe(
      `config error: XDG_STATE_HOME: the state directory ${join(xdg, 'mcp-filesystem')} is a symbolic link; it must be a real directory: replace the link with a directory, or set XDG_STATE_HOME elsewhere`,
    );
    expect(await readdir(target)).toEqual([]);
    // The temp-dir fallback too (another local user could have made that one).
    await symlink(target, join(temp, `mcp-fs-inflight-${uid}`));
    expect(refusal(() => load([home], { XDG_STATE_HOME: undefined }))).toMatch(/^config error: TMPDIR: the state directory .*mcp-fs-inflight-\d+ is a symbolic link; /);
    // A dangling link is refused the same way (it would be followed when made).
    await rm(join(xdg, 'mcp-filesystem'));
    await symlink(join(dir, 'nowhere'), join(xdg, 'mcp-filesystem'));
    expect(refusal(() => load([temp]))).toMatch(/^config error: XDG_STATE_HOME: the state directory .* is a symbolic link; /);
  });

  it('refuses a journal.dir that is a link, explicit or the default one inside the state directory', async () => {
    const target = join(dir, 'elsewhere', 'private');
    await mkdir(target, { mode: 0o700 });
    const link = join(dir, 'journal-link');
    await symlink(target, link);
    expect(refusal(() => load([temp], { MCP_FS_JOURNAL_DIR: link }))).toBe(
      `config error: journal.dir: the journal directory ${link} is a symbolic link; it must be a real directory: replace the link with a directory, or set journal.dir elsewhere`,
    );
    await mkdir(join(xdg, 'mcp-filesystem'));
    await symlink(target, join(xdg, 'mcp-filesystem', 'journal'));
    expect(refusal(() => load([temp]))).toMatch(/^config error: journal\.dir: the journal directory .*mcp-filesystem\/journal is a symbolic link; /);
    expect(await readdir(target)).toEqual([]);
    // With the journal off, its setting is not read.
    expect(load([temp], { MCP_FS_JOURNAL_DIR: link, MCP_FS_JOURNAL_ENABLED: 'false' }).journal).toBeUndefined();
  });
});

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useTestServer } from '../support/live-server.js';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';
import type { TestServer, TestServerOptions } from '../support/server.js';
import { snapshotTree, writeTree } from '../support/fixtures.js';

/** Longest a single hostile call may take before the test calls it a hang. */
export const CALL_BUDGET_MS = 5000;

/**
 * A directory outside every root, holding a secret, plus the bookkeeping that proves an attack
 * changed nothing there and revealed nothing: every outcome is checked for the secret, for any
 * host path (each root's, the outside dir's, the temp dir), for a stack trace and for the
 * `CODE: message` shape.
 */
export class Arena {
  readonly secret = `SECRET-${randomBytes(8).toString('hex')}`;
  outside = '';
  private before: Record<string, string> = {};

  constructor(private readonly server: () => TestServer) {}

  async create(): Promise<void> {
    this.outside = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'adv-outside-')));
    await writeTree(this.outside, {
      'secret.txt': `${this.secret}\n`,
      'sub/inner.txt': `${this.secret} inner\n`,
    });
  }

  async destroy(): Promise<void> {
    if (this.outside) await fs.rm(this.outside, { recursive: true, force: true });
  }

  /** Empties every root (the roots' own directories stay) and snapshots the outside tree. */
  async reset(): Promise<void> {
    for (const root of this.server().config.roots) {
      // GNU rm walks with openat, so it also clears trees deeper than PATH_MAX (node's fs.rm cannot).
      const names = await fs.readdir(root.path);
      if (names.length > 0) execFileSync('rm', ['-rf', '--', ...names], { cwd: root.path });
    }
    this.before = await snapshotTree(this.outside);
  }

  /** The outside tree is byte-for-byte what it was when the test began, and the server still answers. */
  async verify(client: Client): Promise<void> {
    expect(await snapshotTree(this.outside)).toEqual(this.before);
    const roots = await bounded(callTool(client, 'list_roots', {}), 'list_roots after the attack');
    expect(roots.isError).toBe(false);
  }

  /** Host paths the client must never see. */
  hostPaths(): string[] {
    return [...this.server().config.roots.map((root) => root.path), this.outside, tmpdir()];
  }

  /**
   * Calls a tool with a time bound and checks the outcome for leaks. A string the caller itself
   * put into the arguments may be echoed back (an agent learns nothing from its own input).
   */
  async call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCallOutcome> {
    const outcome = await bounded(callTool(client, name, args), `${name} ${JSON.stringify(args).slice(0, 200)}`);
    this.assertClean(outcome, JSON.stringify(args));
    return outcome;
  }

  assertClean(outcome: ToolCallOutcome, input = ''): void {
    const everything = JSON.stringify({ text: outcome.text, content: outcome.content, structured: outcome.structured });
    expect(everything).not.toContain(this.secret);
    for (const hostPath of this.hostPaths()) {
      if (!input.includes(hostPath)) expect(everything).not.toContain(hostPath);
    }
    expect(everything).not.toMatch(/\n\s+at .+:\d+:\d+/);
    if (outcome.isError) {
      // read_files answers path by path, `==> path <==` then `ERROR CODE: message`: each must be a mapped error.
      const errors = outcome.text.startsWith('==> ') ? outcome.text.split('\n').filter((line) => line.startsWith('ERROR ')).map((line) => line.slice(6)) : [outcome.text];
      expect(errors.length).toBeGreaterThan(0);
      for (const text of errors) {
        expect(text).toMatch(/^[A-Z_]+: \S/);
        // An unmapped exception: the server hit a code path nobody planned for.
        expect(text).not.toMatch(/^INTERNAL_ERROR/);
      }
    }
  }
}

/**
 * The set-up every red-team file shares: a server with a client (useTestServer) and an Arena
 * made before the tests and removed after them, emptied before each test and verified after it.
 */
export function useArena(options: TestServerOptions = {}) {
  const live = useTestServer(options);
  const arena = new Arena(() => live.server);
  beforeAll(() => arena.create());
  afterAll(() => arena.destroy());
  beforeEach(() => arena.reset());
  afterEach(() => arena.verify(live.client));

  const host = (path: string, root = 'workspace') => join(live.server.rootPath(root), path);
  return {
    live,
    arena,
    host,
    /** A bounded, leak-checked call, on the file's client unless `on` names another. */
    call: (name: string, args: Record<string, unknown>, on: Client = live.client) => arena.call(on, name, args),
    /** A link at `path` in a root whose text is `target` (parents created). */
    link: async (target: string, path: string, root = 'workspace') => {
      await fs.mkdir(dirname(host(path, root)), { recursive: true });
      await fs.symlink(target, host(path, root));
    },
    /** The text of a relative link at `path` in `root` that reaches `hostTarget`. */
    relativeTo: (hostTarget: string, path: string, root = 'workspace') => relative(dirname(host(path, root)), hostTarget),
  };
}

/** Arguments of a root-scoped tool on 'workspace'. */
export const ws = (extra: Record<string, unknown>) => ({ root: 'workspace', ...extra });

/** Arguments of copy or move. */
export const pair = (source_path: string, dest_path: string, source_root = 'workspace', dest_root = 'workspace') => ({
  source_root,
  source_path,
  dest_root,
  dest_path,
});

/** Fails (instead of hanging the suite) when a call does not settle within the budget. */
export async function bounded<T>(promise: Promise<T>, what: string, budgetMs = CALL_BUDGET_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HANG: ${what} did not answer within ${budgetMs} ms`)), budgetMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function mkfifo(hostPath: string): void {
  execFileSync('mkfifo', [hostPath]);
}

/** A character device like /dev/zero inside a root, when the platform lets us make one (root, no nodev). */
export function tryMakeZeroDevice(hostPath: string): boolean {
  try {
    execFileSync('mknod', [hostPath, 'c', '1', '5'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

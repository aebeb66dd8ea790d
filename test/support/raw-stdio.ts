import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { memoryOf } from './process-memory.js';

const MAIN = join(process.cwd(), 'dist', 'main.js');

export interface RpcAnswer {
  readonly id: string | number | null;
  readonly result?: any;
  readonly error?: { code: number; message: string; data?: any };
}

/**
 * `node dist/main.js --stdio` driven with raw lines, for what the SDK client cannot send: lines
 * of any size, lines that are not JSON, a last line without a newline.
 */
export class RawStdioServer {
  readonly answers: RpcAnswer[] = [];
  private readonly waiters: Array<() => void> = [];

  private constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.answers.push(JSON.parse(line) as RpcAnswer);
      for (const wake of this.waiters.splice(0)) wake();
    });
    child.stderr!.resume();
  }

  static async start(args: readonly string[]): Promise<RawStdioServer> {
    const child = spawn(process.execPath, [MAIN, '--stdio', ...args], { env: { PATH: process.env.PATH }, stdio: ['pipe', 'pipe', 'pipe'] });
    const server = new RawStdioServer(child);
    await server.write(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) + '\n');
    await server.answer('init');
    await server.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    return server;
  }

  /** Writes bytes to stdin, waiting for the pipe to drain. */
  async write(data: string | Buffer): Promise<void> {
    if (!this.child.stdin!.write(data)) await new Promise((resolve) => this.child.stdin!.once('drain', resolve));
  }

  /** The answer with this id (null: the first answer with id null not yet taken). */
  async answer(id: string | number | null, timeoutMs = 120_000): Promise<RpcAnswer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.answers.findIndex((answer) => answer.id === id);
      if (index >= 0) return this.answers.splice(index, 1)[0];
      if (Date.now() > deadline) throw new Error(`no answer with id ${String(id)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** tools/call as one line, and its answer. */
  async call(id: number, name: string, args: Record<string, unknown>): Promise<RpcAnswer> {
    await this.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) + '\n');
    return this.answer(id);
  }

  /** The child's resident set now and at its peak, in bytes (Linux /proc). */
  memory(): Promise<{ rss: number; peak: number }> {
    return memoryOf(this.child.pid!);
  }

  /** Ends stdin and waits for the process to exit (SIGKILL after 10 s). */
  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

// Issue 29 §4's second bar: every legacy-HTTP and stdio row within 10% of the last build on the v1 SDK
// (8a02d63), when MCPFS_BENCH_V1 names its dist/main.js (built in its own worktree with its own
// node_modules). Each row's call, with the row's own arguments, goes to our server and to that build
// in turn, call by call (paired.mjs); the ratio is ours ÷ 8a02d63, the median of per-round ratios with
// their spread. Throughput rows (50 in flight, 50 sessions) alternate whole rounds and compare the
// time a round takes. Both builds run the same config (8a02d63 knows no search.index line) and keep
// their journals in the bench's scratch directory.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPECT } from './corpus.mjs';
import { call, freePort, ourHttp, ourStdio, spawnHttp, stdioClient } from './servers.mjs';
import { burst, pairedRounds, spread } from './paired.mjs';
import { expectEqual } from './workloads.mjs';

const ROOT = 'bench';
const LIMIT = 1.1;
const LABEL = '8a02d63';

async function v1Servers(main, ctx, scratch) {
  const config = join(scratch, 'v1.yaml');
  writeFileSync(config, readFileSync(ctx.config, 'utf8').replace(/^ +index: .*\n/m, ''));
  const port = await freePort();
  return {
    stdio: await stdioClient([main, '--stdio', '--config', config], { MCP_FS_JOURNAL_DIR: join(scratch, 'journal-v1-stdio') }),
    stdioNoJournal: await stdioClient([main, '--stdio', '--config', config], { MCP_FS_JOURNAL_ENABLED: 'false' }),
    http: await spawnHttp([main, '--config', config, '--port', String(port)], port, { MCP_FS_JOURNAL_DIR: join(scratch, 'journal-v1-http') }),
    startup: () => stdioClient([main, '--stdio', '--config', config]),
  };
}

function row(name, transport, { a, b, ratios }) {
  const value = spread(ratios, LABEL);
  return { name: `${name} vs ${LABEL}`, [transport]: a, floors: [[LABEL, b]], ratio: value.text, bar: `≤ ${LIMIT}× ${LABEL}`, met: value.median <= LIMIT };
}

export async function vsV1(ctx) {
  const main = process.env.MCPFS_BENCH_V1;
  if (!main || !existsSync(main)) {
    return { name: `every stdio and legacy HTTP row vs ${LABEL}: set MCPFS_BENCH_V1 to its dist/main.js`, check: true, ratio: 'n/a' };
  }
  const q = ctx.quick;
  const scratch = mkdtempSync(join(tmpdir(), 'mcpfs-bench-v1-'));
  const v1 = await v1Servers(main, ctx, scratch);
  // Our servers are fresh too, so both journals start empty whatever rows ran before.
  const ours = { stdio: await ourStdio(ctx.config, { MCP_FS_JOURNAL_DIR: join(scratch, 'journal-ours-stdio') }), stdioNoJournal: await ourStdio(ctx.config, { MCP_FS_JOURNAL_ENABLED: 'false' }) };
  const oursHttpServer = await ourHttp(ctx.config, { MCP_FS_JOURNAL_DIR: join(scratch, 'journal-ours-http') });
  const [oursHttp, v1Http, oursModern] = await Promise.all([oursHttpServer.connect(), v1.http.connect(), oursHttpServer.connectModern()]);
  const expected4k = readFileSync(join(ctx.corpus, 'small-4k.txt'), 'utf8');
  const read4k = (client) => async () => expectEqual('read_file 4 KB', (await call(client, 'read_file', { root: ROOT, path: 'small-4k.txt' })).content, expected4k);
  const content = 'x'.repeat(4095) + '\n';
  const write = (client, who) => () => call(client, 'write_file', { root: ROOT, path: `work/v1-write-${who}.txt`, content });
  const same = (tool, args, pick) => async (client) => pick(await call(client, tool, args));
  const lines = readFileSync(join(ctx.corpus, 'edit-2000.txt'), 'utf8').split('\n');
  const work = join(ctx.corpus, 'work');
  for (const who of ['ours', 'v1']) writeFileSync(join(work, `v1-edit-${who}.txt`), readFileSync(join(ctx.corpus, 'edit-2000.txt')));
  const counters = { ours: 0, v1: 0 };
  const edit = (client, who) => async () => {
    const line = lines[((counters[who] += 1) * 37) % 2000];
    await call(client, 'view', { path: `/bench/work/v1-edit-${who}.txt` });
    await call(client, 'str_replace', { path: `/bench/work/v1-edit-${who}.txt`, old_str: line, new_str: line.toUpperCase() });
  };
  // The same answer from both builds, or the row does not count.
  const checked = (probe) => {
    let answers = {};
    const on = (who, client) => async () => {
      answers[who] = await probe(client);
      if (answers.ours !== undefined && answers.v1 !== undefined) {
        expectEqual(`${LABEL} answers alike`, JSON.stringify(answers.v1), JSON.stringify(answers.ours));
        answers = {};
      }
    };
    return [on('ours', ours.stdio.client), on('v1', v1.stdio.client)];
  };
  const rows = [];
  try {
    rows.push(row('read_file 4 KB, stdio', 'ours', await pairedRounds(q ? 3 : 11, q ? 20 : 40, read4k(ours.stdio.client), read4k(v1.stdio.client))));
    rows.push(row('read_file 4 KB, legacy HTTP', 'oursHttp', await pairedRounds(q ? 3 : 11, q ? 20 : 40, read4k(oursHttp), read4k(v1Http))));
    const window = same('read_file', { root: ROOT, path: 'lines-200k.txt', offset_lines: 100_000, limit_lines: 50 }, (r) => [r.content, r.lines_total]);
    rows.push(row('lines 100000–100049 of 200k', 'ours', await pairedRounds(q ? 3 : 9, 5, ...checked(window))));
    const folder = same('list_folder', { root: ROOT, path: 'dir-10k' }, (r) => (expectEqual('entries', r.entries.length, EXPECT.dirEntries), r.entries.length));
    rows.push(row('list_folder, 10k entries', 'ours', await pairedRounds(q ? 3 : 7, 3, ...checked(folder))));
    const glob = same('glob', { root: ROOT, path: 'tree-100k', pattern: '**/*.ts', max_results: 100_000 }, (r) => (expectEqual('glob matches', r.matches.length, EXPECT.treeTs), r.matches.length));
    rows.push(row('glob **/*.ts over 100k files', 'ours', await pairedRounds(q ? 3 : 5, 2, ...checked(glob))));
    const grep = same('grep', { root: ROOT, path: 'text-200m', pattern: 'needle_[0-9]{4}', max_results: 1000 }, (r) => (expectEqual('grep total_matches', r.total_matches, EXPECT.needles), r.total_matches));
    rows.push(row('grep regex over 200 MB', 'ours', await pairedRounds(q ? 3 : 5, 1, ...checked(grep))));
    const hashed = q ? 'five-mb.txt' : 'big-1g.bin';
    const hash = same('hash_file', { root: ROOT, path: hashed, algorithm: 'sha256' }, (r) => r.hash);
    rows.push(row(`hash_file sha256, ${q ? '5 MB' : '1 GiB'}`, 'ours', await pairedRounds(q ? 3 : 3, 1, ...checked(hash))));
    rows.push(row('view + str_replace, journal on', 'ours', await pairedRounds(q ? 3 : 11, q ? 4 : 10, edit(ours.stdio.client, 'ours'), edit(v1.stdio.client, 'v1'))));
    expectEqual('edits applied alike', readFileSync(join(work, 'v1-edit-ours.txt'), 'utf8'), readFileSync(join(work, 'v1-edit-v1.txt'), 'utf8'));
    rows.push(row('write_file 4 KiB, journal on, stdio', 'ours', await pairedRounds(q ? 3 : 11, q ? 10 : 20, write(ours.stdio.client, 'on'), write(v1.stdio.client, 'v1-on'))));
    rows.push(row('write_file 4 KiB, journal off, stdio', 'ours', await pairedRounds(q ? 3 : 11, q ? 10 : 20, write(ours.stdioNoJournal.client, 'off'), write(v1.stdioNoJournal.client, 'v1-off'))));
    rows.push(row('write_file 4 KiB, journal on, legacy HTTP', 'oursHttp', await pairedRounds(q ? 3 : 11, q ? 10 : 20, write(oursHttp, 'http'), write(v1Http, 'v1-http'))));
    // Not a v1 comparison (8a02d63 has no modern HTTP): a write's cost on the modern path of the same server.
    const modernWrite = spread((await pairedRounds(q ? 3 : 11, q ? 10 : 20, write(oursModern, 'modern'), write(oursHttp, 'http'))).ratios, 'legacy HTTP');
    rows[rows.length - 1].ratio += `; modern HTTP ${modernWrite.text}`;
    rows.push(row('copy a 1,000-file tree, journal on', 'ours', await copyPair(ctx, q, ours.stdio.client, v1.stdio.client)));
    // Whole rounds alternate for the loads; each round's ratio is our time ÷ 8a02d63's for the same work.
    const loads = async (rounds, ours, theirs) => {
      const a = [];
      const b = [];
      const ratios = [];
      for (let round = 0; round < rounds; round += 1) {
        const [first, second] = round % 2 === 0 ? [ours, theirs] : [theirs, ours];
        const x = await first();
        const y = await second();
        const [mine, base] = round % 2 === 0 ? [x, y] : [y, x];
        a.push(mine);
        b.push(base);
        ratios.push(mine / base);
      }
      return { ratios, a, b };
    };
    const total = q ? 1000 : 4000;
    const inFlight = await loads(q ? 3 : 5, () => burst(50, total, read4k(ours.stdio.client)), () => burst(50, total, read4k(v1.stdio.client)));
    const rate = (ms) => ({ median: total / (ms.sort((x, y) => x - y)[Math.floor((ms.length - 1) / 2)] / 1000), unit: 'calls/s' });
    rows.push({ ...row('one stdio session, 50 requests in flight (time for the burst)', 'ours', { ratios: inFlight.ratios }), ours: rate(inFlight.a), floors: [[LABEL, rate(inFlight.b)]] });
    const sessions = await httpSessionPair(oursHttpServer, v1.http, expected4k, q, loads);
    rows.push({ ...row('50 HTTP sessions × 40 small reads (time for the load)', 'oursHttp', { ratios: sessions.ratios }), oursHttp: sessions.a, floors: [[LABEL, sessions.b]] });
    const startup = async (open) => {
      const s = await open();
      await read4k(s.client)();
      await s.close();
    };
    rows.push(row('startup: spawn → first read_file (stdio)', 'ours', await pairedRounds(q ? 3 : 5, 1, () => startup(() => ourStdio(ctx.config)), () => startup(v1.startup))));
  } finally {
    await Promise.allSettled([oursHttp.close(), v1Http.close(), oursModern.close(), v1.stdio.close(), v1.stdioNoJournal.close(), ours.stdio.close(), ours.stdioNoJournal.close()]);
    await Promise.allSettled([oursHttpServer.stop(), v1.http.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  }
  return { rows };
}

async function httpSessionPair(oursServer, v1Server, expected, quick, loads) {
  const sessions = 50;
  const calls = 40;
  const [ours, theirs] = await Promise.all([oursServer, v1Server].map((server) => Promise.all(Array.from({ length: sessions }, () => server.connect()))));
  // As the httpSessions row: every session makes its 40 calls one after another, all sessions at once.
  const load = (clients) => async () => {
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < calls; i += 1) expectEqual('read_file', (await call(client, 'read_file', { root: ROOT, path: 'small-4k.txt' })).content, expected);
      }),
    );
    return performance.now() - started;
  };
  try {
    const { ratios, a, b } = await loads(quick ? 3 : 5, load(ours), load(theirs));
    const rate = (ms) => ({ median: (sessions * calls) / (ms.sort((x, y) => x - y)[Math.floor((ms.length - 1) / 2)] / 1000), unit: 'calls/s' });
    return { ratios, a: rate(a), b: rate(b) };
  } finally {
    await Promise.allSettled([...ours, ...theirs].map((client) => client.close()));
  }
}

/** The copyTree row's work (1,000 files of 2 KiB in 10 folders) through both builds, each copy to a new folder. */
async function copyPair(ctx, quick, oursClient, v1Client) {
  const relative = `work/v1-copy-tree-${process.pid}`;
  const base = join(ctx.corpus, relative);
  for (let folder = 0; folder < 10; folder += 1) {
    mkdirSync(join(base, 'src', `d${folder}`), { recursive: true });
    for (let file = 0; file < 100; file += 1) writeFileSync(join(base, 'src', `d${folder}`, `f${file}.txt`), `${folder}/${file} `.repeat(2048 / 8).slice(0, 2048));
  }
  let copies = 0;
  const copyWith = (client) => async () => {
    const result = await call(client, 'copy', { source_root: ROOT, source_path: `${relative}/src`, dest_root: ROOT, dest_path: `${relative}/out-${(copies += 1)}` });
    expectEqual('files copied', result.files_copied, 1000);
  };
  try {
    return await pairedRounds(quick ? 1 : 5, 1, copyWith(oursClient), copyWith(v1Client));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

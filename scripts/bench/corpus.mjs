// The benchmark corpus: built once, deterministically (seeded), cached under the OS temp dir.
// A marker file is written last, so a half-built corpus (an interrupted first run) is rebuilt.
import { closeSync, existsSync, mkdirSync, openSync, realpathSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CORPUS_VERSION = 'v2';
const MARKER = '.complete';

/** The counts every answer is checked against. */
export const EXPECT = {
  dirEntries: 10_000,
  treeDirs: 5_110,
  treeFiles: 100_000,
  treeTs: 25_105,
  textFiles: 20_000,
  needles: 40,
  lines: 200_000,
  editLines: 2_000,
  bigBytes: 1024 * 1024 * 1024,
};

function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa ' +
  'quebec romeo sierra tango uniform victor whiskey xray yankee zulu lorem ipsum dolor sit amet const let return ' +
  'function import export class interface value result error buffer stream').split(' ');

function textLines(random, count) {
  const lines = [];
  for (let i = 0; i < count; i += 1) {
    const words = [];
    const n = 6 + Math.floor(random() * 10);
    for (let w = 0; w < n; w += 1) words.push(WORDS[Math.floor(random() * WORDS.length)]);
    lines.push(words.join(' '));
  }
  return lines;
}

function writeFile(path, data) {
  writeFileSync(path, data);
}

function buildSmallFiles(dir, random) {
  writeFile(join(dir, 'small-4k.txt'), (textLines(random, 80).join('\n') + '\n').padEnd(4096, '.').slice(0, 4096));
  const five = [];
  let size = 0;
  while (size < 5 * 1024 * 1024) {
    const line = textLines(random, 1)[0];
    five.push(line);
    size += line.length + 1;
  }
  writeFile(join(dir, 'five-mb.txt'), five.join('\n') + '\n');
  const lines = [];
  for (let i = 1; i <= EXPECT.lines; i += 1) lines.push(`line ${String(i).padStart(6, '0')} the quick brown fox jumps over the lazy dog`);
  writeFile(join(dir, 'lines-200k.txt'), lines.join('\n') + '\n');
  const edit = [];
  for (let i = 1; i <= EXPECT.editLines; i += 1) edit.push(`const value_${String(i).padStart(4, '0')} = compute(${i}); // ${WORDS[i % WORDS.length]}`);
  writeFile(join(dir, 'edit-2000.txt'), edit.join('\n') + '\n');
}

function buildDirectory10k(dir) {
  const target = join(dir, 'dir-10k');
  mkdirSync(target);
  for (let i = 0; i < EXPECT.dirEntries; i += 1) closeSync(openSync(join(target, `entry-${String(i).padStart(5, '0')}.txt`), 'w'));
}

/** 10 top directories x 10 x 50 = 5,110 directories; 20 files in each of the 5,000 leaves; 25,105 end in .ts. */
function buildTree(dir) {
  const target = join(dir, 'tree-100k');
  mkdirSync(target);
  let file = 0;
  for (let a = 0; a < 10; a += 1) {
    for (let b = 0; b < 10; b += 1) {
      for (let c = 0; c < 50; c += 1) {
        const leaf = join(target, `a${a}`, `b${b}`, `c${c}`);
        mkdirSync(leaf, { recursive: true });
        for (let f = 0; f < 20; f += 1, file += 1) {
          // 7919 is prime to 100,000, so exactly 25,105 of the 100,000 indexes land below 25,105.
          const ts = (file * 7919) % EXPECT.treeFiles < EXPECT.treeTs;
          closeSync(openSync(join(leaf, `f${file}.${ts ? 'ts' : 'js'}`), 'w'));
        }
      }
    }
  }
}

/** 200 directories x 100 files of 10,000 bytes; 40 files each carry one line matching needle_[0-9]{4}. */
function buildTextTree(dir, random) {
  const target = join(dir, 'text-200m');
  mkdirSync(target);
  const blocks = [];
  for (let v = 0; v < 16; v += 1) blocks.push(Buffer.from((textLines(random, 200).join('\n') + '\n').padEnd(10_000, ' ').slice(0, 10_000)));
  const needleFiles = new Set();
  while (needleFiles.size < EXPECT.needles) needleFiles.add(Math.floor(random() * EXPECT.textFiles));
  for (let d = 0; d < 200; d += 1) {
    const sub = join(target, `d${d}`);
    mkdirSync(sub);
    for (let f = 0; f < 100; f += 1) {
      const index = d * 100 + f;
      let data = blocks[index % blocks.length];
      if (needleFiles.has(index)) {
        data = Buffer.from(data);
        data.write(`\nneedle_${String(index % 10_000).padStart(4, '0')} found\n`, 5_000);
      }
      writeFile(join(sub, `t${index}.txt`), data);
    }
  }
}

function buildBigFile(dir, random) {
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((random() * 4294967296) >>> 0, i);
  const fd = openSync(join(dir, 'big-1g.bin'), 'w');
  try {
    for (let i = 0; i < EXPECT.bigBytes / chunk.length; i += 1) {
      chunk.writeUInt32LE(i, 0);
      writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Issue 19: the two search trees carry .gitignore files (the root's and a nested one), so grep and glob
 * pay for reading and matching them. Their patterns match none of the files the answers count, so every
 * count above holds with and without ignore rules, and the figures compare before and after.
 */
function writeIgnoreFiles(dir) {
  const rules = ['# build output and tools', 'node_modules/', 'dist/', '/build', '*.log', '!keep.log', '**/coverage/**', '*.tmp', ''];
  writeFile(join(dir, 'tree-100k', '.gitignore'), rules.join('\n'));
  writeFile(join(dir, 'tree-100k', 'a3', '.gitignore'), ['cache/', '*.swp', '/b9/c49/generated-*', ''].join('\n'));
  writeFile(join(dir, 'text-200m', '.gitignore'), rules.join('\n'));
  writeFile(join(dir, 'text-200m', 'd7', '.gitignore'), ['*.bak', 'snapshots/', ''].join('\n'));
}

/** The cached corpus directory (real path), built when missing. */
export function ensureCorpus(log = console.error) {
  const dir = join(realpathSync(tmpdir()), `mcpfs-bench-corpus-${CORPUS_VERSION}`);
  if (existsSync(join(dir, MARKER))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const random = prng(20261122);
  const started = Date.now();
  log('building the benchmark corpus once (about 1.3 GB) in', dir);
  buildSmallFiles(dir, random);
  buildDirectory10k(dir);
  buildTree(dir);
  buildTextTree(dir, random);
  buildBigFile(dir, random);
  writeIgnoreFiles(dir);
  mkdirSync(join(dir, 'work'));
  writeFileSync(join(dir, MARKER), `${CORPUS_VERSION}\n`);
  log(`corpus built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return dir;
}

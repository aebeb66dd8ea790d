import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { join, posix } from 'node:path';
import type { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { DomainError } from '../../src/domain/errors.js';
import { CANARY, expand, type Hosts } from './worlds.js';

/** What one call came to, after normalising: the same on both adapters, or the run disagrees. */
export type Outcome =
  | { readonly ok: unknown }
  | { readonly error: string }
  /** Anything but a DomainError escaped the use case: always a finding. */
  | { readonly crash: string };

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const OWNER_KEYS = new Set(['uid', 'gid', 'owner', 'group']);

/** A world's change ids, each mapped to its ordinal position in that world's journal (see normalise). */
export type ChangeOrdinals = ReadonlyMap<string, string>;
const NO_CHANGES: ChangeOrdinals = new Map();

/**
 * THE ONE PLACE where the two adapters' results are made comparable. Only what cannot be equal is
 * replaced, by a fixed marker:
 * - times (Date values and ISO-8601 strings): the model's clock is fixed, the disk's is the wall clock;
 * - owners (uid, gid, owner, group): the model's entries belong to uid/gid 1000 ("agent"), the disk's to
 *   whoever runs the fuzzer (root here);
 * - the size of a directory: the model says 4096, a disk says whatever its file system keeps (tmpfs
 *   counts entries).
 * - an error carried inside a result (read_files' per-path `{ code, message }`): only its code is
 *   compared, as for an error the call throws (the adapters may word some messages differently; the code
 *   is the contract). An undo's conflict reason is compared whole, so the adapters word a missing file,
 *   folder or folder on the way alike (the file-system contract checks it).
 * - change ids (issue 20), wherever they appear (an id field, or inside a text): each is replaced by its
 *   ordinal position in its own world's journal, `<change N>` (N = 0 for the oldest change). An id is a
 *   time, a per-process sequence and a per-store random tail (change-id.ts), so the same change has a
 *   different id in each world; its position is what both journals must agree on. An id that names
 *   no change (a bogus one the fuzzer sent) is left as it is: it is the same string in both worlds.
 * Inode numbers and file versions never reach a result, so nothing else is normalised: contents,
 * listings, counts, kinds, permissions, link targets, hashes, messages' codes must all be equal.
 */
export function normalise(value: unknown, ids: ChangeOrdinals = NO_CHANGES): unknown {
  return normaliseIn(value, ids, undefined);
}

function normaliseIn(value: unknown, ids: ChangeOrdinals, parentKind: unknown): unknown {
  if (value instanceof Date) return '<time>';
  if (typeof value === 'string') return ISO_TIME.test(value) ? '<time>' : withOrdinals(value, ids);
  if (value instanceof Uint8Array) return `<bytes ${Buffer.from(value).toString('base64')}>`;
  if (Array.isArray(value)) return value.map((item) => normaliseIn(item, ids, undefined));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record.code === 'string' && typeof record.message === 'string' && Object.keys(record).length === 2) return { code: record.code };
  const kind = record.is_directory === true ? 'directory' : (record.type ?? record.kind);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    if (OWNER_KEYS.has(key)) out[key] = '<owner>';
    else if (key === 'size' && (kind === 'directory' || (kind === undefined && parentKind === 'directory'))) out[key] = '<directory size>';
    else out[key] = normaliseIn(item, ids, kind);
  }
  return out;
}

const CHANGE_ID_IN_TEXT = /[0-9a-z]{17}/g;

function withOrdinals(text: string, ids: ChangeOrdinals): string {
  if (ids.size === 0 || text.length < 17) return text;
  return text.replace(CHANGE_ID_IN_TEXT, (id) => ids.get(id) ?? id);
}

/** A world's ids (oldest first) as normalise's map. */
export function changeOrdinals(oldestFirst: readonly string[]): ChangeOrdinals {
  return new Map(oldestFirst.map((id, index) => [id, `<change ${index}>`]));
}

export function outcomeOf(settled: PromiseSettledResult<unknown>, ids: ChangeOrdinals = NO_CHANGES): Outcome {
  if (settled.status === 'fulfilled') return { ok: normalise(settled.value, ids) };
  const reason: unknown = settled.reason;
  if (reason instanceof DomainError) return { error: reason.code };
  return { crash: reason instanceof Error ? `${reason.name}: ${reason.message}\n${reason.stack ?? ''}` : String(reason) };
}

/** Everything a client would see of an outcome: the result's JSON, or the error's client text (its logDetails go only to the server log). */
export function clientText(settled: PromiseSettledResult<unknown>): string {
  if (settled.status === 'fulfilled') return JSON.stringify(settled.value, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value)) ?? '';
  const reason: unknown = settled.reason;
  if (reason instanceof DomainError) return reason.toClientText();
  return reason instanceof Error ? `${reason.message}\n${reason.stack ?? ''}` : String(reason);
}

const STACK_FRAME = /\n\s+at [^\n]*(:\d+:\d+|\(native\))/;

/**
 * Why `text` leaks, or null: canary content, a host path of this run, or a stack trace. A host path
 * the caller passed in as an argument may be echoed back (it tells the caller nothing new), so the
 * arguments' own strings are taken out before looking.
 */
export function leakIn(text: string, hosts: Hosts, args: Record<string, unknown>): string | null {
  if (text.includes(CANARY)) return 'canary content';
  let rest = text;
  for (const value of stringsIn(args)) {
    for (const host of [hosts.base, hosts.journal]) {
      if (value.includes(host)) for (const echo of echoesOf(value, host)) rest = rest.replaceAll(echo, '<argument>');
    }
  }
  // Without its leading '/', which a namespace path may have eaten (`/workspace/tmp/...`).
  if (rest.includes(hosts.base.slice(1))) return 'host path';
  if (rest.includes(hosts.journal.slice(1))) return 'the journal directory';
  if (STACK_FRAME.test(rest)) return 'stack trace';
  return null;
}

/** The forms in which an argument holding a host path may come back: as sent, JSON-escaped, with its slashes and dots resolved. */
function echoesOf(argument: string, base: string): string[] {
  const tail = argument.slice(argument.indexOf(base)).replace(/\/+/g, '/').replace(/\/$/, '');
  const resolved = posix.normalize(tail);
  return [argument, JSON.stringify(argument).slice(1, -1), tail, resolved].flatMap((form) => [form, form.slice(1)]).sort((a, b) => b.length - a.length);
}

/** `args` with this run's host paths and the tree's paths (`$PICK<n>`: the n-th of `picks`) in place of the placeholders. */
export function expandArgs(args: Record<string, unknown>, hosts: Hosts, picks: readonly string[]): Record<string, unknown> {
  const pick = (text: string) => text.replace(/\$PICK(\d+)/g, (_match, n: string) => (picks.length === 0 ? 'nothing' : picks[Number(n) % picks.length]));
  return mapStrings(args, (text) => expand(pick(text), hosts)) as Record<string, unknown>;
}

/** An id of no change: what `$CHANGE<n>` stands for while a journal is empty. */
const NO_CHANGE_YET = 'zzzzzzzzzzzzzzzzz';

/**
 * `args` with `$CHANGE<n>` replaced by the n-th newest change of one world's journal (modulo its
 * size): each world resolves it in its own journal, as a client passes on the ids list_changes gave it.
 */
export function expandChanges(args: Record<string, unknown>, oldestFirst: readonly string[]): Record<string, unknown> {
  const newest = (n: number) => (oldestFirst.length === 0 ? NO_CHANGE_YET : oldestFirst[oldestFirst.length - 1 - (n % oldestFirst.length)]);
  return mapStrings(args, (text) => text.replace(/\$CHANGE(\d+)/g, (_match, n: string) => newest(Number(n)))) as Record<string, unknown>;
}

/** `value` with every string in it (nested in records and arrays too) mapped. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
}

function stringsIn(value: unknown): string[] {
  const found: string[] = [];
  mapStrings(value, (text) => {
    found.push(text);
    return text;
  });
  return found;
}

// --- trees ---

/** path -> what is there (lstat semantics): kind, permissions, content hash or link text. */
export type Snapshot = Map<string, string>;

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

// Cache: keyed by host path, valid while inode, size, mtime and ctime stay (any write changes ctime); cleared per run.
const digests = new Map<string, { key: string; digest: string }>();

export function forgetDigests(): void {
  digests.clear();
}

function fileDigest(host: string, stats: Stats): string {
  const key = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  const cached = digests.get(host);
  if (cached?.key === key) return cached.digest;
  const fresh = digest(readFileSync(host));
  digests.set(host, { key, digest: fresh });
  return fresh;
}

/** The tree on disk below `hostDir`; `skip` names top-level entries left out. */
export function diskSnapshot(hostDir: string, skip: readonly string[] = [], prefix = '', into: Snapshot = new Map()): Snapshot {
  for (const name of readdirSync(hostDir).sort()) {
    if (prefix === '' && skip.includes(name)) continue;
    const host = join(hostDir, name);
    const path = prefix + name;
    const stats = lstatSync(host);
    const permissions = (stats.mode & 0o7777).toString(8);
    if (stats.isDirectory()) {
      into.set(path, `dir ${permissions}`);
      diskSnapshot(host, skip, `${path}/`, into);
    } else if (stats.isFile()) into.set(path, `file ${permissions} ${fileDigest(host, stats)}`);
    else if (stats.isSymbolicLink()) into.set(path, `link ${readlinkSync(host)}`);
    else into.set(path, 'other');
  }
  return into;
}

/** The same view of the model's tree. */
export function modelSnapshot(fs: InMemoryFileSystem, hostDir: string, skip: readonly string[] = [], prefix = '', into: Snapshot = new Map()): Snapshot {
  for (const name of fs.list(hostDir)) {
    if (prefix === '' && skip.includes(name)) continue;
    const host = join(hostDir, name);
    const path = prefix + name;
    const kind = fs.kindOf(host);
    const permissions = (fs.permissionsOf(host) ?? 0).toString(8);
    if (kind === 'directory') {
      into.set(path, `dir ${permissions}`);
      modelSnapshot(fs, host, skip, `${path}/`, into);
    } else if (kind === 'file') into.set(path, `file ${permissions} ${digest(fs.readBytes(host) ?? new Uint8Array())}`);
    else if (kind === 'symlink') into.set(path, `link ${fs.linkTextOf(host)}`);
    else into.set(path, 'other');
  }
  return into;
}

/** The entries that differ between two snapshots, for a failure report; [] when equal. */
export function snapshotDifferences(model: Snapshot, disk: Snapshot): string[] {
  const differences: string[] = [];
  for (const path of new Set([...model.keys(), ...disk.keys()])) {
    if (model.get(path) !== disk.get(path)) differences.push(`${JSON.stringify(path)}: model ${model.get(path) ?? '(none)'} | node ${disk.get(path) ?? '(none)'}`);
  }
  return differences;
}

/** A hash of everything outside the root (names, kinds, contents, link texts): any write out there changes it. */
export function outsideHash(hosts: Hosts): string {
  const entries = [...diskSnapshot(hosts.base, ['root'])].map(([path, what]) => `${path}\0${what}`).join('\n');
  return createHash('sha256').update(entries).digest('hex');
}

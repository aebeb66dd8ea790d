import type { EditSession } from '../edit-session.js';
import { DomainError } from '../errors.js';
import type { ContentHasher } from '../ports/content-hasher.port.js';
import type { EntryStat, FileSystemPort, FileVersion, ReadableFile, WriteMode, WriteResult } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';
import { atNamespacePath, type Namespace } from '../namespace.js';
import { encodeUtf8, readRange, utf8Length } from './file-text.js';

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** 512 -> "512 bytes", 2516582 -> "2.4 MB". */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** "512 bytes", "2.4 MB (2516582 bytes)": exact where rounding hides it. */
function withBytes(bytes: number): string {
  return bytes < 1024 ? humanSize(bytes) : `${humanSize(bytes)} (${bytes} bytes)`;
}

export function fileTooLarge(display: string, size: number, limit: number, what = 'file', setting = 'max_file_size', hint = ''): DomainError {
  return new DomainError(
    'FILE_TOO_LARGE',
    `${what} too large: ${display} is ${withBytes(size)}, over the ${setting} limit of ${withBytes(limit)}${hint && `; ${hint}`}`,
    { attemptedPath: display },
  );
}

/**
 * Stats a namespace target following in-root links and insists on a regular file:
 * NOT_FOUND, IS_A_DIRECTORY and NOT_A_FILE name the namespace path.
 */
export async function statRegularFile(files: FileSystemPort, path: RootPath, display: string): Promise<EntryStat> {
  const stat = await atNamespacePath(display, () => files.stat(path, { followSymlinks: true }));
  if (stat === null) throw new DomainError('NOT_FOUND', `file not found: ${display}`, { attemptedPath: display });
  if (stat.kind === 'directory') {
    throw new DomainError('IS_A_DIRECTORY', `path is a directory: ${display} (use view or file_list to list it)`, { attemptedPath: display });
  }
  if (stat.kind !== 'file') throw new DomainError('NOT_A_FILE', `not a regular file: ${display}`, { attemptedPath: display });
  return stat;
}

/** Insists that a namespace target is a directory (in-root links followed): NOT_FOUND and NOT_A_DIRECTORY name the namespace path. */
export async function assertDirectory(files: FileSystemPort, path: RootPath, display: string): Promise<void> {
  const stat = await atNamespacePath(display, () => files.stat(path, { followSymlinks: true }));
  if (stat === null) throw new DomainError('NOT_FOUND', `directory not found: ${display}`, { attemptedPath: display });
  if (stat.kind !== 'directory') throw new DomainError('NOT_A_DIRECTORY', `not a directory: ${display}`, { attemptedPath: display });
}

/** Opens, hands the file to `use`, and always closes it. */
export async function withOpenFile<T>(
  files: FileSystemPort,
  path: RootPath,
  display: string,
  use: (file: ReadableFile) => Promise<T>,
): Promise<T> {
  const file = await atNamespacePath(display, () => files.openFile(path));
  try {
    return await use(file);
  } finally {
    await file.close();
  }
}

/** The whole file from `position` on (the caller has checked its size against a limit). */
export function readToEnd(file: ReadableFile, position = 0): Promise<Uint8Array> {
  return readRange(file, position, Number.POSITIVE_INFINITY);
}

export function sha256(hasher: ContentHasher, bytes: Uint8Array): string {
  const hash = hasher.create('sha256');
  hash.update(bytes);
  return hash.digest();
}

/** The content of a whole-file write as UTF-8, refused over max_file_size before anything is touched. */
export function contentBytes(content: string, display: string, maxFileSize: number): Uint8Array {
  // UTF-8 spends at least a byte on each UTF-16 unit: a longer string is refused without encoding it
  // (a 60 MB refusal allocated 60 MB more just to be measured).
  if (content.length > maxFileSize) throw fileTooLarge(display, utf8Length(content), maxFileSize, 'content');
  const bytes = encodeUtf8(content);
  if (bytes.length > maxFileSize) throw fileTooLarge(display, bytes.length, maxFileSize, 'content');
  return bytes;
}

/** create_file's and file_write's write: missing parents 0755, a new file 0644, an existing one replaced atomically. */
export function writeWholeFile(
  files: FileSystemPort,
  path: RootPath,
  display: string,
  bytes: Uint8Array,
  mode: WriteMode,
  expected?: FileVersion,
): Promise<WriteResult> {
  return atNamespacePath(display, () => files.writeFile(path, bytes, { mode, createParents: true, newFilePermissions: 0o644, expected }));
}

/** The session's own write is the version it has now seen: what is on disk, with the hash of the bytes written. */
export async function recordOwnWrite(
  session: EditSession,
  files: FileSystemPort,
  hasher: ContentHasher,
  target: { path: RootPath; display: string; key: string },
  bytes: Uint8Array,
): Promise<void> {
  const written = await atNamespacePath(target.display, () => files.stat(target.path, { followSymlinks: true }));
  if (written) await session.recordSeen(target.key, written, sha256(hasher, bytes));
}

/** A namespace target that must be inside a root (`/` is the list of roots, not a file). */
export function locateEntry(namespace: Namespace, tool: string, rawPath: string, cwd: string): { path: RootPath; display: string } {
  const target = namespace.locate(tool, rawPath, cwd);
  if (target.kind === 'roots') {
    throw new DomainError('IS_A_DIRECTORY', 'path is a directory: / (the list of roots); name a file inside a root, e.g. /<root>/<path>');
  }
  return target;
}

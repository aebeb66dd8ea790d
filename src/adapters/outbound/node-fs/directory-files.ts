import { closeSync } from 'node:fs';
import type { DirectoryFile, DirectoryFiles } from '../../../domain/ports/file-system.port.js';
import { openSmallRegularFile, readWhole } from './small-files.js';

/**
 * TreeScanOptions.directoryFiles for the Node scan: the rule files (.gitignore ...) of the directory
 * being scanned, read before its entries are judged. `prefix` is '' when the directory is the working
 * directory (bare names), else its `/proc/self/fd/N/` path, as for every other lookup of the scan.
 *
 * Security: a rule file is read only when the listing names it as a regular file, and it is opened by
 * its bare name in the directory that was listed, never through a link (see openSmallRegularFile). Its contents only ever make a scan
 * report fewer entries (the domain's rules), so a planted rule file cannot widen what is reachable.
 */
export function readDirectoryFiles(prefix: string, listed: readonly { name: string; kind: string }[], wanted: DirectoryFiles): DirectoryFile[] {
  const files: DirectoryFile[] = [];
  for (const name of wanted.names) {
    if (!listed.some((entry) => entry.kind === 'file' && entry.name === name)) continue;
    const contents = readSmallFile(prefix + name, wanted.maxBytes);
    if (contents !== undefined) files.push({ name, contents });
  }
  return files;
}

/** The whole file when it is a regular file of at most maxBytes; undefined when it cannot be read so (gone, swapped, too big). */
function readSmallFile(path: string, maxBytes: number): Uint8Array | undefined {
  const opened = openSmallRegularFile(path, maxBytes);
  if (opened === undefined) return undefined;
  try {
    const contents = Buffer.allocUnsafe(opened.stats.size);
    return contents.subarray(0, readWhole(opened.fd, contents));
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

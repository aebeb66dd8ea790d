import { closeSync } from 'node:fs';
import type { DirectoryFile, DirectoryFiles } from '../../../domain/ports/tree-scan-types.js';
import { openSmallRegularFile, readWhole } from './small-files.js';
import { versionOf } from './writes.js';

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
    const file = readSmallFile(prefix + name, wanted.maxBytes);
    if (file !== undefined) files.push({ name, ...file });
  }
  return files;
}

/** The whole file when it is a regular file of at most maxBytes; undefined when it cannot be read so (gone, swapped, too big). */
function readSmallFile(path: string, maxBytes: number): Pick<DirectoryFile, 'contents' | 'version'> | undefined {
  const opened = openSmallRegularFile(path, maxBytes);
  if (opened === undefined) return undefined;
  try {
    const contents = Buffer.allocUnsafe(opened.stats.size);
    return { contents: contents.subarray(0, readWhole(opened.fd, contents)), version: versionOf(opened.stats) };
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

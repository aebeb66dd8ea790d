import { compareCodePoints } from '../../../domain/code-point-order.js';
import type { FileVersion } from '../../../domain/ports/file-system.port.js';
import type { DirectoryFile, ScannedEntry, TreeScanBatch, TreeScanOptions } from '../../../domain/ports/tree-scan-types.js';
import { childPath, type RootPath } from '../../../domain/roots.js';
import { isOwnWorkFile } from '../../../domain/work-files.js';
import { type DirectoryNode, type FileNode, fileSize, type Tree } from './tree.js';

interface Frame {
  readonly directory: RootPath;
  readonly relativePath: string;
  readonly depth: number;
  readonly names: string[];
  readonly node: DirectoryNode;
  next: number;
}

/** A file's bytes: its own, or (an archive member's) read from where they are kept. */
export type ContentsOf = (file: FileNode) => Uint8Array | Promise<Uint8Array>;

const ownData: ContentsOf = (file) => file.data.slice();

/** FileSystemPort.scanTree over the in-memory tree: one batch per directory, links never entered. */
export async function* scanMemoryTree(
  tree: Tree,
  start: RootPath,
  node: DirectoryNode,
  options: TreeScanOptions,
  versionOf?: (file: FileNode) => FileVersion,
  contentsOf: ContentsOf = ownData,
): AsyncGenerator<TreeScanBatch> {
  const workNames = options.includeWorkNames === true;
  const stack: Frame[] = [frameOf(start, '', 0, node, workNames)];
  await readDirectoryFiles(stack[0], options, versionOf, contentsOf);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const selected: ScannedEntry[] = [];
    let scanned = 0;
    while (frame.next < frame.names.length) {
      const name = frame.names[frame.next++];
      const child = frame.node.children.get(name);
      // Removed by an earlier batch's caller: gone, like a vanished entry on disk.
      if (child === undefined) continue;
      scanned += 1;
      const relativePath = frame.relativePath === '' ? name : `${frame.relativePath}/${name}`;
      if (options.prune?.(relativePath, child.kind)) continue;
      if (options.select(relativePath, child.kind)) {
        const stat = tree.statOf(name, child, frame.directory, false);
        const read = options.readContents !== undefined && child.kind === 'file' && fileSize(child) <= options.readContents.maxBytes;
        selected.push(read ? { relativePath, stat, contents: await contentsOf(child) } : { relativePath, stat });
      }
      if (child.kind === 'directory' && (options.maxDepth === undefined || frame.depth + 1 < options.maxDepth)) {
        const entered = frameOf(childPath(frame.directory, name), relativePath, frame.depth + 1, child, workNames);
        await readDirectoryFiles(entered, options, versionOf, contentsOf);
        stack.push(entered);
        break;
      }
    }
    if (frame.next >= frame.names.length && stack[stack.length - 1] === frame) stack.pop();
    yield { scanned, selected };
  }
}

/** TreeScanOptions.directoryFiles: the directory's regular files of those names (links are not read), before its entries are judged. */
async function readDirectoryFiles(frame: Frame, options: TreeScanOptions, versionOf: ((file: FileNode) => FileVersion) | undefined, contentsOf: ContentsOf): Promise<void> {
  const wanted = options.directoryFiles;
  if (wanted === undefined) return;
  const files: DirectoryFile[] = [];
  for (const name of wanted.names) {
    const node = frame.node.children.get(name);
    if (node?.kind === 'file' && fileSize(node) <= wanted.maxBytes) files.push({ name, contents: await contentsOf(node), version: versionOf?.(node) });
  }
  wanted.found(frame.relativePath, files);
}

function frameOf(directory: RootPath, relativePath: string, depth: number, node: DirectoryNode, includeWorkNames: boolean): Frame {
  const names = [...node.children.keys()].filter((name) => includeWorkNames || !isOwnWorkFile(name));
  return { directory, relativePath, depth, node, names: names.sort(compareCodePoints), next: 0 };
}

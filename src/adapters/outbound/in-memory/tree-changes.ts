import { errors } from '../../../domain/errors.js';
import { fitsHostPath, hostPathOf, hostPathTooLong, normalizeAbsolute } from '../../../domain/path-policy.js';
import { baseName, displayPath, parentPath, type RootPath } from '../../../domain/roots.js';
import { simulatedWriteFailure, walkFailure } from './failures.js';
import { InMemorySeeding } from './seeding.js';
import { type DirectoryNode, newDirectory, newFile, type TreeNode } from './tree.js';

/** The in-memory tree's changes that several of InMemoryFileSystem's operations make: copies, mkdir -p, links in and out of a directory. */
export class InMemoryTreeChanges extends InMemorySeeding {
  /** The checks of a copy, made before anything changes; `place` then puts the copy there. */
  protected copyPlan(from: RootPath, to: RootPath): { place(): { size: number } } {
    const source = this.tree.walk(from, true);
    if (source.status !== 'found') throw walkFailure(source, from, 'source file');
    if (source.node.kind === 'directory') throw errors.isADirectory(from.root.name, displayPath(from));
    if (source.node.kind !== 'file') throw errors.notAFile(from.root.name, displayPath(from));
    const destination = this.tree.walk(to, false);
    if (destination.status === 'missing') throw errors.notFound('directory', to.root.name, displayPath(parentPath(to)));
    if (destination.status !== 'found' && destination.status !== 'absent') throw walkFailure(destination, to, 'path');
    if (destination.status === 'found' && (destination.node.kind === 'directory' || !destination.parent)) {
      throw errors.isADirectory(to.root.name, displayPath(to));
    }
    // Like the Node adapter's writer: a file or a link is replaced, a FIFO or other special file is not.
    if (destination.status === 'found' && destination.node.kind === 'other') throw errors.notAFile(to.root.name, displayPath(to));
    if (!fitsHostPath(destination.path)) throw hostPathTooLong(to);
    this.checkInjectedFailure(destination.path, to);
    // Like temp file + rename: whatever non-directory was at the destination is replaced, not written through.
    const copy = newFile(this.now(), source.node.data.slice(), source.node.permissions);
    return {
      place: () => {
        this.attach(destination.parent as DirectoryNode, baseName(destination.path), copy);
        return { size: copy.data.length };
      },
    };
  }

  /** mkdir -p that follows in-root links on the way; true when the last directory was created. */
  protected makeDirectories(path: RootPath, requested: RootPath): boolean {
    let created = false;
    for (let depth = 0; depth <= path.segments.length; depth += 1) {
      const prefix = { root: path.root, segments: path.segments.slice(0, depth) };
      let result = this.tree.walk(prefix, true);
      if (result.status === 'missing') {
        // A dangling in-root link whose target lies below missing directories: make those first.
        this.makeDirectories(parentPath(result.path), requested);
        result = this.tree.walk(prefix, true);
      }
      // Like the Node adapter: the physical path, which an in-root link may have lengthened.
      if ((result.status === 'absent' || result.status === 'found') && !fitsHostPath(result.path)) throw hostPathTooLong(requested);
      created = false;
      if (result.status === 'absent') {
        this.attach(result.parent, baseName(result.path), newDirectory(this.now()));
        created = true;
      } else if (result.status === 'found') {
        if (result.node.kind !== 'directory') throw errors.notADirectory(requested.root.name, displayPath(requested));
      } else {
        throw walkFailure(result, requested, 'path');
      }
    }
    return created;
  }

  protected checkInjectedFailure(target: RootPath, requested: RootPath): void {
    for (const host of [hostPathOf(target), hostPathOf(requested)]) {
      if (this.failingWrites.delete(normalizeAbsolute(host))) throw simulatedWriteFailure(requested);
    }
  }

  protected attach(parent: DirectoryNode, name: string, node: TreeNode): void {
    parent.children.set(name, node);
    parent.modifiedAt = this.now();
  }

  protected detach(parent: DirectoryNode, name: string): void {
    parent.children.delete(name);
    parent.modifiedAt = this.now();
  }
}

import { DomainError, errors, inRoot } from '../../../domain/errors.js';
import type { RootPath } from '../../../domain/roots.js';
import { displayPath } from '../../../domain/roots.js';
import type { WalkResult } from './tree.js';

type NotFoundWhat = Parameters<typeof errors.notFound>[0];

function tooManyLinks(path: RootPath): DomainError {
  const shown = displayPath(path);
  return new DomainError('ACCESS_DENIED', `too many levels of symbolic links: ${shown}${inRoot(path.root.name)}`, {
    root: path.root.name,
    attemptedPath: shown,
  });
}

export function simulatedWriteFailure(path: RootPath): DomainError {
  const shown = displayPath(path);
  return new DomainError('IO_ERROR', `write failed: ${shown}${inRoot(path.root.name)}`, {
    root: path.root.name,
    attemptedPath: shown,
    cause: 'simulated failure (InMemoryFileSystem.failNextWrite)',
  });
}

/**
 * The DomainError for a walk that did not reach an entry. Messages always name the path
 * the caller asked for, never where a link led (that may be a host path). `what` names the entry
 * itself when only it is missing (`absent`).
 */
export function walkFailure(result: Exclude<WalkResult, { status: 'found' }>, requested: RootPath, what: NotFoundWhat): DomainError {
  const root = requested.root.name;
  const shown = displayPath(requested);
  switch (result.status) {
    case 'absent':
      return errors.notFound(what, root, shown);
    case 'missing':
      // Like the Node adapter, whose walker names the whole path when a folder on the way is missing.
      return errors.notFound('path', root, shown);
    case 'not-a-directory':
      return errors.notADirectory(root, shown);
    case 'outside':
      return errors.outsideRoot(root, shown, result.linkText);
    case 'loop':
      return tooManyLinks(requested);
  }
}

/** Security: the root directory itself is never removed, moved or replaced. */
export function rootItself(reason: string, path: RootPath): DomainError {
  return new DomainError('ACCESS_DENIED', `${reason}${inRoot(path.root.name)}`, { root: path.root.name, attemptedPath: '.' });
}

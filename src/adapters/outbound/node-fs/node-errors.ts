import { DomainError, errors, inRoot, type ErrorLogDetails } from '../../../domain/errors.js';
import { displayPath, type RootPath } from '../../../domain/roots.js';

type Missing = 'file' | 'directory' | 'path' | 'source file' | 'source';

/** Reasons that help a client act and reveal nothing about the host. */
const SAFE_REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  ENAMETOOLONG: 'name too long',
  EBUSY: 'resource busy',
  ENOTEMPTY: 'directory not empty',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
};

export function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
}

/**
 * Maps a Node error raised while working on `path` to a DomainError. Security: the client
 * message names only the root and the in-root path; Node's own message carries host paths,
 * so it (and the errno) go to logDetails only.
 */
export function translate(error: unknown, path: RootPath, missing: Missing = 'path'): DomainError {
  if (error instanceof DomainError) return error;
  const root = path.root.name;
  const shown = displayPath(path);
  const code = errnoOf(error);
  const details: ErrorLogDetails = {
    root,
    attemptedPath: shown,
    resolvedPath: (error as NodeJS.ErrnoException | undefined)?.path,
    cause: code ?? String(error),
  };
  switch (code) {
    case 'ENOENT':
      return withDetails(errors.notFound(missing, root, shown), details);
    case 'ENOTDIR':
      return withDetails(errors.notADirectory(root, shown), details);
    case 'EISDIR':
      return withDetails(errors.isADirectory(root, shown), details);
    case 'EEXIST':
      return withDetails(errors.alreadyExists(root, shown), details);
    case 'ENXIO':
      return withDetails(errors.notAFile(root, shown), details);
    case 'EACCES':
    case 'EPERM':
      return new DomainError('PERMISSION_DENIED', `permission denied: ${shown}${inRoot(root)}`, details);
    default: {
      const reason = code === undefined ? undefined : SAFE_REASONS[code];
      return new DomainError('IO_ERROR', `I/O error${reason ? ` (${reason})` : ''}: ${shown}${inRoot(root)}`, details);
    }
  }
}

function withDetails(error: DomainError, details: ErrorLogDetails): DomainError {
  return new DomainError(error.code, error.message, { ...error.logDetails, ...details });
}

/**
 * A chain of links longer than MAX_SYMLINK_HOPS (or an entry that keeps changing under us).
 * Security: denied like an escape, since where such a chain ends cannot be judged.
 */
export class SymlinkLoopError extends DomainError {
  constructor(path: RootPath) {
    super('ACCESS_DENIED', `too many levels of symbolic links: ${displayPath(path)}${inRoot(path.root.name)}`, {
      root: path.root.name,
      attemptedPath: displayPath(path),
      cause: 'ELOOP',
    });
  }
}

export function outsideRoot(path: RootPath, hostDetail?: string): DomainError {
  return errors.outsideRoot(path.root.name, displayPath(path), hostDetail);
}

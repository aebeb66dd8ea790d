export type ErrorCode =
  | 'UNKNOWN_ROOT'
  | 'NO_ROOTS'
  | 'TOOL_NOT_ALLOWED'
  | 'ACCESS_DENIED'
  | 'INVALID_PATH'
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'NOT_A_DIRECTORY'
  | 'IS_A_DIRECTORY'
  | 'NOT_A_FILE'
  | 'FILE_TOO_LARGE'
  | 'PATCH_FAILED'
  | 'NO_MATCH'
  | 'MULTIPLE_MATCHES'
  | 'PERMISSION_DENIED'
  | 'FILE_NOT_VIEWED'
  | 'FILE_CHANGED_SINCE_VIEW'
  | 'CONFLICT'
  | 'IO_ERROR'
  | 'CANCELLED'
  | 'DECLINED'
  | 'WATCH_LIMIT_REACHED'
  | 'INTERNAL_ERROR';

/** Facts kept for the server log only; never shown to a client (they may hold host paths). */
export interface ErrorLogDetails {
  tool?: string;
  root?: string;
  attemptedPath?: string;
  resolvedPath?: string;
  cause?: string;
}

/**
 * The one error type of the domain. `message` is client-safe: it names the root and the
 * in-root path, never a host path. Adapters translate every foreign error into one of these.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly logDetails: ErrorLogDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get isSecurityDenial(): boolean {
    return this.code === 'ACCESS_DENIED' || this.code === 'TOOL_NOT_ALLOWED' || this.code === 'INVALID_PATH';
  }

  /** The text a client sees: `CODE: message`. */
  toClientText(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** Suffix naming where a failure happened, e.g. ` (root: workspace)`. */
export function inRoot(rootName: string): string {
  return ` (root: ${rootName})`;
}

export const errors = {
  unknownRoot: (name: string) => new DomainError('UNKNOWN_ROOT', `unknown root: ${name}`),
  toolNotAllowed: (tool: string, root: string) =>
    new DomainError('TOOL_NOT_ALLOWED', `tool ${tool} not allowed on root ${root}`, { tool, root }),
  toolNotAllowedAnywhere: (tool: string) =>
    new DomainError('TOOL_NOT_ALLOWED', `tool ${tool} is not allowed on any root this session may use; list_roots shows each root's allowed_tools`, { tool }),
  outsideRoot: (root: string, path: string, resolvedPath?: string) =>
    new DomainError('ACCESS_DENIED', `path resolves outside root boundary: ${path}${inRoot(root)}`, {
      root,
      attemptedPath: path,
      resolvedPath,
    }),
  invalidPath: (root: string, path: string, reason: string) =>
    new DomainError('INVALID_PATH', `invalid path: ${reason}: ${path}${inRoot(root)}`, { root, attemptedPath: path }),
  notFound: (what: 'file' | 'directory' | 'path' | 'source file' | 'source', root: string, path: string) =>
    new DomainError('NOT_FOUND', `${what} not found: ${path}${inRoot(root)}`, { root, attemptedPath: path }),
  alreadyExists: (root: string, path: string, hint = '') =>
    new DomainError('ALREADY_EXISTS', `file already exists: ${path}${hint}${inRoot(root)}`, { root, attemptedPath: path }),
  /** Retryable: another writer changed the file between this call's read and its write. */
  conflict: (root: string, path: string, reason = 'file changed while patching') =>
    new DomainError('CONFLICT', `${reason}: ${path}${inRoot(root)}; read it again and retry`, { root, attemptedPath: path }),
  notADirectory: (root: string, path: string) =>
    new DomainError('NOT_A_DIRECTORY', `not a directory: ${path}${inRoot(root)}`, { root, attemptedPath: path }),
  isADirectory: (root: string, path: string, hint = '') =>
    new DomainError('IS_A_DIRECTORY', `path is a directory: ${path}${hint}${inRoot(root)}`, { root, attemptedPath: path }),
  notAFile: (root: string, path: string) =>
    new DomainError('NOT_A_FILE', `not a regular file: ${path}${inRoot(root)}`, { root, attemptedPath: path }),
  /** A root that cannot change (an archive): every write names it and the path it was asked to change. */
  readOnlyRoot: (root: string, path: string) =>
    new DomainError('PERMISSION_DENIED', `read-only root (an archive): cannot change ${path}${inRoot(root)}`, { root, attemptedPath: path }),
  invalidArgument: (message: string) => new DomainError('INVALID_ARGUMENT', message),
  noRoots: () =>
    new DomainError('NO_ROOTS', 'the client shared no folders; share a folder in the client or start the server with DIR arguments'),
};

import { errors, inRoot } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import type { FileSystemPort, WriteMode } from '../ports/file-system.port.js';
import { displayPath, isRootItself } from '../roots.js';
import type { Settings } from '../settings.js';
import { currentText, dryRunDiff, type DryRunFields } from './dry-run.js';
import type { RootAccess } from './root-access.js';

/** FR-006 modes and the port write each one becomes; overwrite is atomic (NFR-014). */
const WRITE_MODES: Readonly<Record<string, WriteMode>> = {
  overwrite: 'replace',
  append: 'append',
  create_only: 'create_exclusive',
};

export interface WriteFileInput {
  root: string;
  path: string;
  content: string;
  mode?: string;
  /** Overwrite mode only: check everything, write nothing, return the diff. */
  dry_run?: boolean;
}

export interface WriteFileResult {
  path: string;
  /** Bytes written by this call (UTF-8). */
  size: number;
  mode: string;
}

export class WriteFile {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
    private readonly settings: Pick<Settings, 'maxFileSize' | 'maxResultBytes'>,
  ) {}

  async execute(input: WriteFileInput): Promise<WriteFileResult | (WriteFileResult & DryRunFields)> {
    const target = this.access.path('write_file', input.root, input.path);
    const rootName = target.root.name;
    const shown = displayPath(target);
    const mode = input.mode ?? 'overwrite';
    if (!Object.hasOwn(WRITE_MODES, mode)) {
      throw errors.invalidArgument(
        `invalid write mode: ${mode}; valid modes: ${Object.keys(WRITE_MODES).join(', ')}${inRoot(rootName)}`,
      );
    }
    if (input.dry_run && mode !== 'overwrite') throw errors.invalidArgument(`dry_run applies to overwrite mode only, not ${mode}${inRoot(rootName)}`);
    const existing = isRootItself(target) ? null : await this.fs.stat(target);
    // create_only promises ALREADY_EXISTS "if anything is there": a directory too.
    if (mode === 'create_only' && existing) throw errors.alreadyExists(rootName, shown, existing.kind === 'directory' ? ' (a directory; create_only never replaces anything)' : '; use overwrite mode to replace');
    if (isRootItself(target) || existing?.kind === 'directory' || existing?.link?.targetKind === 'directory') {
      throw errors.isADirectory(rootName, shown, '; write_file writes files');
    }
    const data = new TextEncoder().encode(input.content);
    if (input.dry_run) {
      // No lock and no write: the current text (none for a new file) against what the call would leave.
      const before = existing ? await currentText(this.fs, target, this.settings.maxFileSize) : '';
      return { path: shown, size: data.length, mode, ...(await dryRunDiff(shown, before, input.content, this.settings.maxResultBytes)) };
    }
    const write = () => this.fs.writeFile(target, data, { mode: WRITE_MODES[mode], createParents: true });
    // An append is one O_APPEND write and loses nothing; a replace waits for any edit of the file in progress.
    await (mode === 'append' ? write() : withFileLock(this.fs, target, write));
    return { path: shown, size: data.length, mode };
  }
}

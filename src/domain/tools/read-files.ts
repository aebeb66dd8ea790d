import { DomainError } from '../errors.js';
import { escapedLength } from '../result-budget.js';
import type { Settings } from '../settings.js';
import type { WorkContext } from '../work-context.js';
import type { ReadFile, ReadFileResult } from './read-file.js';
import type { RootAccess } from './root-access.js';

/** Paths one read_files call takes at most. */
export const MAX_READ_FILES_PATHS = 50;
/** Escaped bytes set aside per file for its path (twice: structure and text header) and fields. */
const ENTRY_RESERVE_BYTES = 256;
/** Below this much budget left, the next file is not started. */
const MIN_FILE_BUDGET_BYTES = 1024;

export interface ReadFilesInput {
  root: string;
  paths: readonly string[];
  offset_lines?: number;
  limit_lines?: number;
}

export interface ReadFilesError {
  path: string;
  /** RESULT_BUDGET: not read because the call's result budget was spent; read it in another call. */
  error: { code: string; message: string };
}

export type ReadFilesEntry = ReadFileResult | ReadFilesError;

export interface ReadFilesResult {
  files: ReadFilesEntry[];
}

/** Told of each entry as it is settled; `cause` is the error behind a failed one (none for RESULT_BUDGET). */
export type ReadFilesListener = (entry: ReadFilesEntry, cause?: DomainError) => void;

export function isReadError(entry: ReadFilesEntry): entry is ReadFilesError {
  return 'error' in entry;
}

/**
 * Many files in one call, each read as read_file reads it (same permission, same line window)
 * and all within one result budget: the file that does not fit comes back truncated with its
 * next offset, the files after it as RESULT_BUDGET. One bad path fails only its own entry.
 */
export class ReadFiles {
  constructor(
    private readonly access: RootAccess,
    private readonly readFile: ReadFile,
    private readonly settings: Settings,
  ) {}

  async execute(input: ReadFilesInput, work?: WorkContext, listener: ReadFilesListener = () => undefined): Promise<ReadFilesResult> {
    // Security: the root and read_file's allowlist entry are checked once for the whole call, before any path.
    this.access.root('read_file', input.root);
    if (input.paths.length < 1 || input.paths.length > MAX_READ_FILES_PATHS) {
      throw new DomainError('INVALID_ARGUMENT', `paths takes 1 to ${MAX_READ_FILES_PATHS} paths, got ${input.paths.length} (root: ${input.root})`);
    }
    const window = { offset_lines: input.offset_lines, limit_lines: input.limit_lines };
    const byLines = input.offset_lines !== undefined || input.limit_lines !== undefined;
    const files: ReadFilesEntry[] = [];
    let remaining = this.settings.maxResultBytes;
    let spent = false;
    const settle = (entry: ReadFilesEntry, cause?: DomainError) => {
      files.push(entry);
      listener(entry, cause);
    };
    for (const path of input.paths) {
      remaining -= ENTRY_RESERVE_BYTES + 2 * escapedLength(path);
      if (spent || remaining < MIN_FILE_BUDGET_BYTES) {
        spent = true;
        settle(budgetSpent(path));
        continue;
      }
      try {
        const { result, budgetCut } = await this.readFile.readWithin({ root: input.root, path, ...window }, remaining, work);
        settle(result);
        remaining -= escapedLength(result.content);
        spent = budgetCut;
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === 'CANCELLED') throw error;
        // A line window larger than what is left of the budget: that is the budget, not the file.
        if (error.code === 'FILE_TOO_LARGE' && byLines && remaining < this.settings.maxResultBytes - ENTRY_RESERVE_BYTES - 2 * escapedLength(path)) {
          spent = true;
          settle(budgetSpent(path));
          continue;
        }
        settle({ path, error: { code: error.code, message: error.message } }, error);
      }
    }
    return { files };
  }
}

function budgetSpent(path: string): ReadFilesError {
  return {
    path,
    error: { code: 'RESULT_BUDGET', message: `not read: this call's result budget (max_result_bytes) is spent; read ${path} in another call` },
  };
}

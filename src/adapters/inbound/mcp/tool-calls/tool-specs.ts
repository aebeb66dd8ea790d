import { TOOL_NAMES, type ToolName } from '../../../../domain/tool-names.js';
import type { ToolSpec } from './tool-spec.js';
import { changeDirectorySpec } from '../tools/change-directory.tool.js';
import { copySpec } from '../tools/copy.tool.js';
import { createFileSpec } from '../tools/create-file.tool.js';
import { createFolderSpec } from '../tools/create-folder.tool.js';
import { fileListSpec } from '../tools/file-list.tool.js';
import { fileReadSpec } from '../tools/file-read.tool.js';
import { fileWriteSpec } from '../tools/file-write.tool.js';
import { globSpec } from '../tools/glob.tool.js';
import { grepSpec } from '../tools/grep.tool.js';
import { hashFileSpec } from '../tools/hash-file.tool.js';
import { listChangesSpec } from '../tools/list-changes.tool.js';
import { listFolderSpec } from '../tools/list-folder.tool.js';
import { listRootsSpec } from '../tools/list-roots.tool.js';
import { moveSpec } from '../tools/move.tool.js';
import { patchFileSpec } from '../tools/patch-file.tool.js';
import { permissionsFileSpec } from '../tools/permissions-file.tool.js';
import { readFileSpec } from '../tools/read-file.tool.js';
import { readFilesSpec } from '../tools/read-files.tool.js';
import { removeFileSpec } from '../tools/remove-file.tool.js';
import { reviewChangesSpec } from '../tools/review-changes.tool.js';
import { removeFolderSpec } from '../tools/remove-folder.tool.js';
import { statFileSpec } from '../tools/stat-file.tool.js';
import { strReplaceSpec } from '../tools/str-replace.tool.js';
import { undoChangesSpec } from '../tools/undo-changes.tool.js';
import { viewSpec } from '../tools/view.tool.js';
import { writeFileSpec } from '../tools/write-file.tool.js';

/** Each tool's spec under its name: a tool of the domain catalog without a spec fails the typecheck. */
const SPECS: { readonly [Name in ToolName]: ToolSpec } = {
  list_roots: listRootsSpec,
  list_folder: listFolderSpec,
  read_file: readFileSpec,
  read_files: readFilesSpec,
  write_file: writeFileSpec,
  remove_file: removeFileSpec,
  patch_file: patchFileSpec,
  create_folder: createFolderSpec,
  remove_folder: removeFolderSpec,
  stat_file: statFileSpec,
  hash_file: hashFileSpec,
  permissions_file: permissionsFileSpec,
  copy: copySpec,
  move: moveSpec,
  grep: grepSpec,
  glob: globSpec,
  view: viewSpec,
  str_replace: strReplaceSpec,
  create_file: createFileSpec,
  change_directory: changeDirectorySpec,
  file_read: fileReadSpec,
  file_write: fileWriteSpec,
  file_list: fileListSpec,
  list_changes: listChangesSpec,
  undo_changes: undoChangesSpec,
  review_changes: reviewChangesSpec,
};

/** Every tool's spec, in the catalog's order (the order of tools/list). */
export const TOOL_SPECS: readonly ToolSpec[] = TOOL_NAMES.map((name) => SPECS[name]);

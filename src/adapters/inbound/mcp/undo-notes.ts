import { WRITING_TOOLS } from '../../../domain/tool-names.js';
import type { ToolDefinition } from './tool-definition.js';

const CANNOT_BE_UNDONE = /\s*Cannot be undone\./;
const UNDO_NOTE = ' Undoable (undo_changes).';

/**
 * While the change journal is on, every writing tool's description tells the model its change can
 * be undone, and "Cannot be undone" (remove_file, remove_folder) goes. One place, so the tools'
 * own files keep the journal-off wording.
 */
export function withUndoNotes(definitions: readonly ToolDefinition[], journalOn: boolean): ToolDefinition[] {
  if (!journalOn) return [...definitions];
  return definitions.map((definition) =>
    WRITING_TOOLS.has(definition.name) && definition.name !== 'undo_changes'
      ? { ...definition, description: definition.description.replace(CANNOT_BE_UNDONE, '') + UNDO_NOTE }
      : definition,
  );
}

import { z } from 'zod';
import type { CallUndoReach } from './call-author.js';
import type { ToolDefinition, ToolOutput } from './tool-definition.js';

const CANNOT_BE_UNDONE = /\s*Cannot be undone\./;
const PAST_LIMIT = 'past journal.max_file_bytes';
const REPLACED = `over a link, special file or file ${PAST_LIMIT}`;

/** What each writing tool's change can be that an undo cannot take back (create_folder: nothing). */
const NOT_UNDOABLE: Readonly<Record<string, string>> = {
  write_file: PAST_LIMIT,
  patch_file: PAST_LIMIT,
  str_replace: PAST_LIMIT,
  create_file: PAST_LIMIT,
  file_write: PAST_LIMIT,
  remove_file: `a link, special file or file ${PAST_LIMIT}`,
  remove_folder: `${PAST_LIMIT}, and links in it stay lost`,
  copy: REPLACED,
  move: REPLACED,
};

/** The fields a result gains when some change of the call cannot be undone, or not whole. */
const UNDO_OUTPUT = {
  undoable: z.literal([false, 'partly']).optional(),
  reason: z.string().optional(),
};

/**
 * While the change journal is on, every writing tool's description tells the model its change can
 * be undone and when it cannot, and "Cannot be undone" (remove_file, remove_folder) goes; the
 * result says `undoable: false` (or `partly`) with the reason whenever one of the call's changes was
 * journaled as such. One place, so the tools' own files keep the journal-off wording.
 */
export function withUndoNotes(definitions: readonly ToolDefinition[], journalOn: boolean): ToolDefinition[] {
  if (!journalOn) return [...definitions];
  return definitions.map((definition) => {
    // A writing tool is one whose readOnlyHint is false (the registry holds it to the tool's facts).
    if (definition.annotations.readOnlyHint || definition.name === 'undo_changes') return definition;
    const description = definition.description.replace(CANNOT_BE_UNDONE, '');
    const exception = NOT_UNDOABLE[definition.name];
    if (exception === undefined) return { ...definition, description: `${description} Undoable (undo_changes).` };
    return {
      ...definition,
      description: `${description} Undoable (undo_changes); not ${exception} (result: undoable false, reason).`,
      outputSchema: { ...definition.outputSchema, ...UNDO_OUTPUT },
      handle: async (args, context) => withReach(await definition.handle(args, context), context.undoReach?.()),
    };
  });
}

/** The call's result, saying which of its changes an undo cannot take back (whole), if any. */
export function withReach(output: ToolOutput, reach: CallUndoReach | undefined): ToolOutput {
  if (reach === undefined || reach.notWholeCount === 0 || output.structured === undefined) return output;
  const undoable = reach.none === reach.changes ? false : 'partly';
  const more = reach.notWholeCount - reach.notWhole.length;
  const reason = reach.notWhole.map((change) => `${change.path}: ${change.reason}`).join('; ') + (more > 0 ? `; and ${more} more (see list_changes)` : '');
  const structured = { ...output.structured, undoable, reason };
  if (output.text === undefined) return { ...output, structured };
  return { ...output, structured, text: `${output.text}\n${undoable === false ? 'Cannot be undone' : 'Undoable only in part'}: ${reason}` };
}

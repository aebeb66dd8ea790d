import { AsyncLocalChangeAuthor } from '../../../../../src/adapters/inbound/mcp/tool-calls/call-author.js';
import type { ToolDefinition } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { withReach, withUndoNotes } from '../../../../../src/adapters/inbound/mcp/tool-calls/undo-notes.js';
import { removeFolderTool } from '../../../../../src/adapters/inbound/mcp/tools/remove-folder.tool.js';
import type { RemoveFolder } from '../../../../../src/domain/tools/remove-folder.js';

const callOf = (tool: string) => ({ principal: 'local', session: 'stdio-1', tool });

describe('a call is told how far an undo of its changes reaches (issue 32 §1)', () => {
  it('tallies each call apart: how many changes, how many not undoable, and the first three not undoable whole', () => {
    const authors = new AsyncLocalChangeAuthor();
    const copy = callOf('copy');
    const write = callOf('write_file');
    for (let i = 0; i < 5; i += 1) authors.committed(copy, { root: 'w', path: `f${i}`, undoable: i === 0 ? true : false, reason: 'too large' });
    authors.committed(write, { root: 'w', path: 'a', undoable: true });
    expect(authors.reachOf(copy)).toMatchObject({ changes: 5, none: 4, notWholeCount: 4 });
    expect(authors.reachOf(copy).notWhole.map((reach) => reach.path)).toEqual(['f1', 'f2', 'f3']);
    expect(authors.reachOf(write)).toEqual({ changes: 1, none: 0, notWhole: [], notWholeCount: 0 });
    expect(authors.reachOf(callOf('move'))).toEqual({ changes: 0, none: 0, notWhole: [], notWholeCount: 0 });
  });

  it('adds undoable false and the reason to the structured result, and to a text the tool wrote itself', () => {
    const reach = { changes: 1, none: 1, notWhole: [{ root: 'w', path: 'big.log', undoable: false as const, reason: 'too large' }], notWholeCount: 1 };
    expect(withReach({ structured: { path: 'big.log' } }, reach)).toEqual({ structured: { path: 'big.log', undoable: false, reason: 'big.log: too large' } });
    expect(withReach({ structured: { path: 'big.log' }, text: 'Edited big.log.' }, reach).text).toBe('Edited big.log.\nCannot be undone: big.log: too large');
  });

  it("says partly when some of the call's changes can be undone, and counts those it does not name", () => {
    const notWhole = ['a', 'b', 'c'].map((path) => ({ root: 'w', path, undoable: false as const, reason: 'a symbolic link cannot be recreated by an undo' }));
    const result = withReach({ structured: {} }, { changes: 10, none: 5, notWhole, notWholeCount: 5 });
    expect(result.structured).toMatchObject({ undoable: 'partly' });
    expect(result.structured?.reason).toMatch(/^a: a symbolic link .*; c: a symbolic link cannot be recreated by an undo; and 2 more \(see list_changes\)$/);
    expect(withReach({ structured: { path: 'x' } }, { changes: 2, none: 0, notWhole: [], notWholeCount: 0 })).toEqual({ structured: { path: 'x' } });
  });

  it("with the journal on, the description says when not, the output schema declares undoable and reason, and the handler adds the call's reach", async () => {
    const removeFolder = { execute: async () => ({ path: 'ltree', removed: true as const }) } as unknown as RemoveFolder;
    const [off] = withUndoNotes([removeFolderTool(removeFolder)], false);
    const [on] = withUndoNotes([removeFolderTool(removeFolder)], true);
    expect(off.description).toContain('Cannot be undone.');
    expect(off.outputSchema).not.toHaveProperty('undoable');
    expect(on.description).not.toContain('Cannot be undone');
    expect(on.description).toMatch(/Undoable \(undo_changes\); not past journal\.max_file_bytes, and links in it stay lost \(result: undoable false, reason\)\.$/);
    expect(Object.keys(on.outputSchema!)).toEqual(['path', 'removed', 'undoable', 'reason']);
    const reach = { changes: 1, none: 0, notWhole: [{ root: 'w', path: 'ltree', undoable: 'partly' as const, reason: 'without ltree/l' }], notWholeCount: 1 };
    const output = await (on as ToolDefinition).handle({ root: 'w', path: 'ltree' }, { sessionId: 's', principal: 'local', undoReach: () => reach });
    expect(output.structured).toEqual({ path: 'ltree', removed: true, undoable: 'partly', reason: 'ltree: without ltree/l' });
  });
});

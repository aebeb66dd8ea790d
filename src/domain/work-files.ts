/**
 * Our own temp and lock files (`.mcp-fs-<hex>.tmp|lock`, always regular files, made by the file-system
 * adapters): never shown by a listing or search. A before-image cannot tell such a file from a user's
 * of the same name, so a folder holding one is recorded not undoable (Snapshots.tree).
 */
const OWN_WORK_FILE = /^\.mcp-fs-[0-9a-f]{16}\.(tmp|lock)$/;

export function isOwnWorkFile(name: string): boolean {
  // Most names do not start with a dot: skip the regex for them.
  return name.charCodeAt(0) === 0x2e && OWN_WORK_FILE.test(name);
}

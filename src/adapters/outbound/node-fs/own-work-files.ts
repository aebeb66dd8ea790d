/** Our own temp and lock files (`.mcp-fs-<hex>.tmp|lock`): never shown by a listing or search. */
const OWN_WORK_FILE = /^\.mcp-fs-[0-9a-f]{16}\.(tmp|lock)$/;

export function isOwnWorkFile(name: string): boolean {
  // Most names do not start with a dot: skip the regex for them.
  return name.charCodeAt(0) === 0x2e && OWN_WORK_FILE.test(name);
}

import { errors } from '../errors.js';
import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import { displayPath, type RootPath } from '../roots.js';

/**
 * Where a search starts, with an in-root link followed (the client named it explicitly);
 * a link that leaves the root is refused by the port.
 */
export async function statSearchStart(fs: FileSystemPort, start: RootPath): Promise<EntryStat> {
  const stat = await fs.stat(start, { followSymlinks: true });
  if (stat === null) throw errors.notFound('path', start.root.name, displayPath(start));
  return stat;
}

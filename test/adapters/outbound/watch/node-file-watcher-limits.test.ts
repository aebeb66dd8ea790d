import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchError } from '../../../../src/adapters/outbound/watch/node-file-watcher.js';
import { readOsWatchLimit } from '../../../../src/adapters/outbound/watch/os-watch-limit.js';
import { DomainError } from '../../../../src/domain/errors.js';
import { makeRoot } from '../../../support/roots.js';

describe('NodeFileWatcher and the OS watch limit', () => {
  it('maps ENOSPC from inotify to WATCH_LIMIT_REACHED naming root and path, never the host path', () => {
    const path = { root: makeRoot('workspace', '/srv/secret-host-dir'), segments: ['src', 'a.ts'] };
    const enospc = Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch \'/proc/self/fd/23\''), { code: 'ENOSPC' });
    const mapped = watchError(enospc, path);
    expect(mapped).toBeInstanceOf(DomainError);
    expect((mapped as DomainError).toClientText()).toBe(
      "WATCH_LIMIT_REACHED: cannot watch src/a.ts (root: workspace): the operating system's limit on watches (fs.inotify.max_user_watches) is reached; unsubscribe from some resources first",
    );
    const other = Object.assign(new Error('EMFILE'), { code: 'EMFILE' });
    expect(watchError(other, path)).toBe(other);
  });

  it('reads the OS limit as the lowest positive number of its files, or none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'os-watch-limit-'));
    try {
      await writeFile(join(dir, 'limit'), '8192\n');
      await writeFile(join(dir, 'junk'), 'many\n');
      await writeFile(join(dir, 'namespace'), '600\n');
      expect(readOsWatchLimit([join(dir, 'limit'), join(dir, 'missing')])).toBe(8192);
      expect(readOsWatchLimit([join(dir, 'limit'), join(dir, 'namespace')])).toBe(600);
      expect(readOsWatchLimit([join(dir, 'junk'), join(dir, 'missing')])).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

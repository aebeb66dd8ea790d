import { PathPolicy } from '../../../src/domain/path-policy.js';
import { ListRoots } from '../../../src/domain/tools/list-roots.js';
import { makeRoot } from '../../support/roots.js';

describe('ListRoots', () => {
  const roots = [
    makeRoot('workspace', '/data/workspace', ['*']),
    makeRoot('config', '/etc/app-config', ['list_folder', 'read_file', 'stat_file']),
    makeRoot('logs', '/var/log/app', []),
  ];
  const listRoots = new ListRoots(new PathPolicy(roots));

  it('E2E-061: lists every root with its allowlist as configured', async () => {
    expect(await listRoots.execute()).toEqual({
      roots: [
        { name: 'workspace', allowed_tools: ['*'] },
        { name: 'config', allowed_tools: ['list_folder', 'read_file', 'stat_file'] },
        { name: 'logs', allowed_tools: [] },
      ],
    });
  });

  it('E2E-062: never mentions a host path', async () => {
    const json = JSON.stringify(await listRoots.execute());
    for (const root of roots) expect(json).not.toContain(root.hostPath);
  });
});

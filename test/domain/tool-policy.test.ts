import { ToolCatalog } from '../../src/domain/tool-catalog.js';
import { ToolPolicy } from '../../src/domain/tool-policy.js';
import { makeRoot } from '../support/roots.js';
import { toolPolicy } from '../support/tools.js';

describe('ToolPolicy', () => {
  const policy = toolPolicy();
  const readonly = makeRoot('readonly', '/r', ['list_folder', 'read_file']);
  const all = makeRoot('dest', '/d', ['*']);

  it('E2E-066: rejects a tool missing from the allowlist, naming tool and root', () => {
    expect(() => policy.assertAllowed('write_file', readonly)).toThrow('tool write_file not allowed on root readonly');
    expect(() => policy.assertAllowed('read_file', readonly)).not.toThrow();
  });

  it('expands the wildcard to every allowlistable tool', () => {
    expect(() => policy.assertAllowed('remove_folder', all)).not.toThrow();
    expect(() => policy.assertAllowed('view', all)).not.toThrow();
  });

  it('E2E-067 / E2E-068: cross-root operations need the tool on both roots', () => {
    expect(() => policy.assertAllowedOnBoth('copy', readonly, all)).toThrow('tool copy not allowed on root readonly');
    expect(() => policy.assertAllowedOnBoth('copy', all, readonly)).toThrow('tool copy not allowed on root readonly');
    expect(() => policy.assertAllowedOnBoth('copy', all, all)).not.toThrow();
  });

  it('E2E-083: reports unknown names for config validation', () => {
    expect(policy.unknownNames(['read_file', '*', 'nonexistent_tool'])).toEqual(['nonexistent_tool']);
  });

  it('offers a tool when at least one root allows it, and list_roots / change_directory always', () => {
    expect(policy.usableSomewhere('read_file', [readonly])).toBe(true);
    expect(policy.usableSomewhere('write_file', [readonly])).toBe(false);
    expect(policy.usableSomewhere('write_file', [readonly, all])).toBe(true);
    expect(policy.usableSomewhere('list_roots', [])).toBe(true);
    expect(policy.usableSomewhere('change_directory', [readonly])).toBe(true);
    expect(policy.usableSomewhere('read_file', [])).toBe(false);
  });
});

describe('ToolPolicy.usableSomewhere: a tool that shares another tool\'s permission', () => {
  const policy = toolPolicy();
  const root = (allowed: string[]) => ({ name: 'r', hostPath: '/r', allowedTools: new Set(allowed), configuredTools: allowed });

  it('offers read_files exactly where read_file is allowed', () => {
    expect(policy.usableSomewhere('read_files', [root(['read_file'])])).toBe(true);
    expect(policy.usableSomewhere('read_files', [root(['grep', 'write_file'])])).toBe(false);
    expect(policy.usableSomewhere('read_files', [])).toBe(false);
  });
});

describe('ToolPolicy judges by the catalog it is given, not a list of its own', () => {
  const catalog = new ToolCatalog([
    ['list_roots', { toolset: 'root', permission: 'always', readOnly: true }],
    ['touch', { toolset: 'root', permission: 'allowlisted', readOnly: false }],
    ['peek', { toolset: 'editor', permission: 'allowlisted', readOnly: true }],
  ]);
  const policy = new ToolPolicy(catalog);

  it('knows exactly the catalog\'s allowlistable tools: `*` expands to them, anything else is unknown', () => {
    expect([...policy.expand(['*'])]).toEqual(['touch', 'peek']);
    expect(policy.unknownNames(['touch', 'peek', 'read_file', 'list_roots'])).toEqual(['read_file', 'list_roots']);
  });

  it('says which tools write, and offers a tool only where some root allows it', () => {
    expect(policy.writes('touch')).toBe(true);
    expect(policy.writes('peek')).toBe(false);
    const peekOnly = { name: 'r', hostPath: '/r', allowedTools: new Set(['peek']), configuredTools: ['peek'] };
    expect(policy.usableSomewhere('touch', [peekOnly])).toBe(false);
    expect(policy.usableSomewhere('peek', [peekOnly])).toBe(true);
    expect(policy.usableSomewhere('list_roots', [])).toBe(true);
  });
});

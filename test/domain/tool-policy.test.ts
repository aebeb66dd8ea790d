import { ToolPolicy } from '../../src/domain/tool-policy.js';
import { makeRoot } from '../support/roots.js';

describe('ToolPolicy', () => {
  const policy = new ToolPolicy();
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
    expect(ToolPolicy.unknownNames(['read_file', '*', 'nonexistent_tool'])).toEqual(['nonexistent_tool']);
  });

  it('offers a tool when at least one root allows it, and list_roots / change_directory always', () => {
    expect(ToolPolicy.usableSomewhere('read_file', [readonly])).toBe(true);
    expect(ToolPolicy.usableSomewhere('write_file', [readonly])).toBe(false);
    expect(ToolPolicy.usableSomewhere('write_file', [readonly, all])).toBe(true);
    expect(ToolPolicy.usableSomewhere('list_roots', [])).toBe(true);
    expect(ToolPolicy.usableSomewhere('change_directory', [readonly])).toBe(true);
    expect(ToolPolicy.usableSomewhere('read_file', [])).toBe(false);
  });
});

describe('ToolPolicy.usableSomewhere: a tool that shares another tool\'s permission', () => {
  const root = (allowed: string[]) => ({ name: 'r', hostPath: '/r', allowedTools: new Set(allowed), configuredTools: allowed });

  it('offers read_files exactly where read_file is allowed', () => {
    expect(ToolPolicy.usableSomewhere('read_files', [root(['read_file'])])).toBe(true);
    expect(ToolPolicy.usableSomewhere('read_files', [root(['grep', 'write_file'])])).toBe(false);
    expect(ToolPolicy.usableSomewhere('read_files', [])).toBe(false);
  });
});

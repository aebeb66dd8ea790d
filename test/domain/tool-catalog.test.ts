import { ToolCatalog } from '../../src/domain/tool-catalog.js';
import type { ToolFacts } from '../../src/domain/tool-facts.js';

// A catalog that is not the product's: the sets follow whatever facts it is given, so a tool declared
// elsewhere (its spec) needs no line in a shared list.
const FACTS: ReadonlyArray<readonly [string, ToolFacts]> = [
  ['list_roots', { toolset: 'root', permission: 'always', readOnly: true }],
  ['touch', { toolset: 'root', permission: 'allowlisted', readOnly: false }],
  ['peek', { toolset: 'root', permission: 'allowlisted', readOnly: true }],
  ['peek_many', { toolset: 'root', permission: { sharesWith: 'peek' }, readOnly: true }],
  ['jot', { toolset: 'editor', permission: 'allowlisted', readOnly: false }],
];

describe('ToolCatalog', () => {
  const catalog = new ToolCatalog(FACTS);

  it('keeps the order it was given (the order of tools/list)', () => {
    expect(catalog.names).toEqual(['list_roots', 'touch', 'peek', 'peek_many', 'jot']);
  });

  it('derives the allowlistable, root-scoped, read-only and writing sets from the facts', () => {
    expect([...catalog.allowlistable]).toEqual(['touch', 'peek', 'jot']);
    expect(catalog.rootScoped).toEqual(['touch', 'peek']);
    expect(catalog.readOnly).toEqual(['peek']);
    expect([...catalog.writing]).toEqual(['touch', 'jot']);
  });

  it('names the governing permission and the toolset of each tool', () => {
    expect(catalog.permissionOf('peek_many')).toBe('peek');
    expect(catalog.permissionOf('touch')).toBe('touch');
    expect(catalog.permissionOf('unknown')).toBe('unknown');
    expect(catalog.toolsetOfTool('jot')).toBe('editor');
    expect(catalog.toolsetOfTool('list_roots')).toBe('root');
    expect(catalog.toolsetOf('list_roots')).toBeUndefined();
    expect(catalog.toolsetOf('unknown')).toBeUndefined();
    expect(catalog.factsOf('touch')).toEqual({ toolset: 'root', permission: 'allowlisted', readOnly: false });
  });

  it('refuses a tool declared twice', () => {
    expect(() => new ToolCatalog([...FACTS, ['touch', { toolset: 'repo', permission: 'allowlisted', readOnly: true }]])).toThrow(
      'tool touch is in the catalog twice',
    );
  });

  it('refuses a tool that shares the permission of a tool no allowlist names', () => {
    expect(() => new ToolCatalog([...FACTS, ['roots_again', { toolset: 'root', permission: { sharesWith: 'list_roots' }, readOnly: true }]])).toThrow(
      'tool roots_again shares the permission of list_roots, which is not an allowlisted tool',
    );
  });
});

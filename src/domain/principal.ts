import type { Root } from './roots.js';
import type { ToolCatalog } from './tool-catalog.js';

/**
 * Who is calling, as the domain sees it: a name for the audit log and the scopes the
 * inbound adapter granted (static token entry or JWT claims). No HTTP detail reaches here.
 */
export interface Principal {
  /** `token:NAME`, `oauth:SUB` (principalName), or LOCAL_OPERATOR; never the token itself. */
  readonly name: string;
  /** The roots this principal may use; undefined means every configured root. */
  readonly roots?: readonly string[];
  /** True: only tools that do not write. */
  readonly readOnly: boolean;
}

/**
 * The local operator's name (stdio, `auth.mode: none`). Security: no token or OAuth principal can
 * take it, since their names always carry their source's prefix (principalName); a token named
 * "local" is `token:local`, so it neither reads nor undoes the operator's journaled changes.
 */
export const LOCAL_OPERATOR = 'local';

/** stdio and `auth.mode: none`: a local operator with every configured root. */
export const UNRESTRICTED_PRINCIPAL: Principal = Object.freeze({ name: LOCAL_OPERATOR, readOnly: false });

/**
 * A principal's name in its source's own namespace: a static token's configured name, an OAuth
 * token's `sub` (or client_id). Journal records and sessions are kept by this name, so two sources
 * that use one word (a token "ci" and an OAuth sub "ci") are two principals. Records written before
 * names carried a prefix (a bare "alice") match no prefixed name: the local operator, who sees every
 * record, still lists and undoes them; no token can claim them by its name.
 */
export function principalName(source: 'token' | 'oauth', name: string): string {
  return `${source}:${name}`;
}

/** Port: the principal of the tool call being served (set by the inbound adapter per call). */
export interface PrincipalContext {
  current(): Principal;
}

/**
 * The roots a principal sees: those it may use, each with its allowlist narrowed (a
 * read-only principal loses every writing tool `tools` holds). Security: the narrowed Root replaces the
 * configured one everywhere a lookup happens, so ToolPolicy, list_roots and the editor
 * namespace all judge against the principal's view, never the full configuration.
 */
export function rootsVisibleTo(principal: Principal, roots: readonly Root[], tools: ToolCatalog): Root[] {
  const granted = principal.roots === undefined ? roots : roots.filter((root) => principal.roots?.includes(root.name));
  if (!principal.readOnly) return [...granted];
  return granted.map((root) => {
    const allowedTools = new Set([...root.allowedTools].filter((tool) => !tools.writing.has(tool)));
    const configuredTools = [...tools.allowlistable].filter((tool) => allowedTools.has(tool));
    return { ...root, allowedTools, configuredTools };
  });
}

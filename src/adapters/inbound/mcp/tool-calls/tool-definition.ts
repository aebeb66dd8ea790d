import type { ZodRawShape, z } from 'zod';
import type { DomainError } from '../../../../domain/errors.js';
import type { WorkContext } from '../../../../domain/work-context.js';
import type { CallUndoReach } from './call-author.js';

/** How a tool takes part in state handles: `mints` one when called without (editor tools), or only `accepts` one (journal tools). */
export type HandleUse = 'mints' | 'accepts';

/** Facts about the caller that some tools need (the editor tools keep per-session state). */
export interface ToolCallContext {
  /** The Mcp-Session-Id, or `stdio-<random>` for a stdio connection. */
  readonly sessionId: string;
  /** Who the session belongs to (token name or JWT sub), for the call log; never a credential. */
  readonly principal: string;
  /**
   * The request's cancellation and progress reporting, in domain terms; long use cases (grep,
   * glob, copy, move, remove_folder, hash_file, read_file) take it as their last argument.
   */
  readonly work?: WorkContext;
  /** With the journal on: the changes the call has made so far, as far as an undo can take them back. */
  readonly undoReach?: () => CallUndoReach;
}

/** What a handler returns; the MCP adapter turns it into a CallToolResult. */
export interface ToolOutput {
  /** Sent as structuredContent (snake_case keys); the text block renders it unless `text` is set. */
  readonly structured?: Record<string, unknown>;
  /** Text block shown to the model instead of the definition's rendering of `structured`. */
  readonly text?: string;
  /** The call failed as a whole though it has a result (read_files when every path failed). */
  readonly isError?: boolean;
  /** An image content block (base64 data). */
  readonly image?: { readonly data: string; readonly mimeType: string };
  /**
   * A batch (read_files): each entry is a call of its own to the call log, the metrics and the MCP
   * log, so a denied path is logged as a denial whatever the other paths did.
   */
  readonly entries?: readonly BatchEntryCall[];
}

/** One entry of a batch, as the call log records it. */
export interface BatchEntryCall {
  readonly path: string;
  /** Absent when the entry succeeded; `text` is what the client read for it. */
  readonly error?: { readonly code: string; readonly text: string; readonly cause?: DomainError };
  readonly durationMs: number;
  readonly responseBytes: number;
}

export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** What the call log records besides tool, outcome, duration and size (NFR-017). */
export interface ToolLogFields {
  readonly root?: string;
  readonly path?: string;
}

/**
 * One tool = one module exporting a factory that returns this. Handlers parse nothing
 * themselves (the MCP adapter validates `inputSchema`, strictly) and throw only DomainErrors; the adapter
 * maps errors, logs the call, and formats the result.
 */
export interface ToolDefinition<Shape extends ZodRawShape = ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Shape;
  readonly outputSchema?: ZodRawShape;
  readonly annotations: ToolAnnotations;
  /** Takes a `handle` (2026-07-28 state without sessions): see protocol/state-handles.ts. */
  readonly stateHandle?: HandleUse;
  /** Listed as the tool's `_meta` (e.g. an MCP App's `ui.resourceUri`). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * The text blocks the model reads, rendered from the structured result (e.g. read_file's raw
   * content plus a continuation note). Without it the text block is the result as compact JSON.
   * Typed `never` so each tool can name its own result type; it is only called with `structured`.
   */
  toText?(structured: never): string | readonly string[];
  logFields(args: z.infer<z.ZodObject<Shape>>): ToolLogFields;
  handle(args: z.infer<z.ZodObject<Shape>>, context: ToolCallContext): Promise<ToolOutput>;
}

/** Identity helper that keeps the schema's inferred argument type for `handle`. */
export function defineTool<Shape extends ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Only additive updates: nothing existing is removed or overwritten (MCP destructiveHint false). */
export const WRITES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const IDEMPOTENT_WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

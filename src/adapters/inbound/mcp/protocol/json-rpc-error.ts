import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/** An error the SDK answers as is: this code and this message (an McpError would prefix its own words). */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** -32602, for a request whose parameters are wrong; `message` says which and why. */
  static invalidParams(message: string): JsonRpcError {
    return new JsonRpcError(ProtocolErrorCode.InvalidParams, message);
  }

  /**
   * A resource that is not there: -32602 with the URI in `data`, on every protocol revision. 2026-07-28
   * requires it (SEP-2164); for 2025 clients the SDK's encoder maps the old -32002 to it anyway, and
   * the spec asks clients to accept both.
   */
  static resourceNotFound(uri: string, message: string): JsonRpcError {
    return new JsonRpcError(ProtocolErrorCode.InvalidParams, message, { uri });
  }
}

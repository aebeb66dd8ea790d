import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** An error the SDK answers as is: this code and this message (an McpError would prefix its own words). */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  /** -32602, for a request whose parameters are wrong; `message` says which and why. */
  static invalidParams(message: string): JsonRpcError {
    return new JsonRpcError(ErrorCode.InvalidParams, message);
  }
}

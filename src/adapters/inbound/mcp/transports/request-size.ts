/**
 * The largest JSON-RPC request either transport accepts (an HTTP body, a stdio line), derived from
 * max_file_size so that the largest legal request always fits: create_file / file_write / write_file
 * content of exactly max_file_size bytes, escaped at JSON's worst (a control character such as U+0001
 * is sent as the six bytes `\u0001`), plus room for the envelope, the path and the other arguments.
 * The default max_file_size of 10 MiB gives 61 MiB. A request past it is refused with REQUEST_TOO_LARGE
 * and never held in memory whole (see BoundedLineReader for stdio, readJsonBody for HTTP).
 */
export const WORST_JSON_ESCAPE_FACTOR = 6;
export const REQUEST_ENVELOPE_BYTES = 1024 * 1024;

export function requestLimitBytes(maxFileSize: number): number {
  return WORST_JSON_ESCAPE_FACTOR * maxFileSize + REQUEST_ENVELOPE_BYTES;
}

/** JSON-RPC "Invalid Request": the code both transports answer an oversized request with. */
export const REQUEST_TOO_LARGE_RPC_CODE = -32600;

export function requestTooLargeMessage(size: number | undefined, limit: number): string {
  const what = size === undefined ? 'Request too large' : `Request too large: ${size} bytes`;
  return `${what}; at most ${limit} bytes are accepted (6 x max_file_size + 1 MiB). Nothing was done; send smaller pieces.`;
}

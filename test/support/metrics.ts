/** The value of one sample line of a Prometheus scrape, e.g. `mcp_fs_tool_calls_total{tool="read_file",...}`. */
export function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

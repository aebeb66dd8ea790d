/** What the adapter that will serve a root says about the configured location: its real path, or why it cannot serve it. */
export type RootProbeResult = { readonly realPath: string } | { readonly problem: string };

/**
 * loadConfig asks these, never the disk itself, whether a root is there: each kind of root is
 * answered by the adapter that serves it (the Node file system for directories, the archive
 * adapter for archives). The composition root hands them over; they run once, at start-up.
 */
export interface RootProbes {
  directory(configured: string): RootProbeResult;
  archive(configured: string): RootProbeResult;
}

// Loaded with module.register() when the conformance suite has to run on Node 20: its bundle imports
// fs.globSync (Node 22), which only its `tier-check` command calls. Every other `fs` export is Node's own.
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/conformance-202')) {
    return { url: new URL('./node20-fs.mjs', import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}

import type { RootsSource } from '../../domain/ports/roots-source.port.js';
import type { Root } from '../../domain/roots.js';

/** The operator's roots (config file or DIR arguments): fixed for the life of the process. */
export class ConfiguredRoots implements RootsSource {
  constructor(private readonly roots: readonly Root[]) {}

  current(): readonly Root[] {
    return this.roots;
  }
}

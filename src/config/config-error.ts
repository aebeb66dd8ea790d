/** A bad configuration: the process prints `message` as its one line on stderr and exits. */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`config error: ${key}: ${reason}`);
    this.name = 'ConfigError';
  }
}

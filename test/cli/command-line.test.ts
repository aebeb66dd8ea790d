import { CommandLineError, HELP, parseCommandLine } from '../../src/cli/command-line.js';

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('parseCommandLine', () => {
  it('DIR arguments serve stdio by default, --http switches to HTTP', () => {
    expect(parseCommandLine(['a', 'b'])).toEqual({ config: undefined, dirs: ['a', 'b'], stdio: true, clientRoots: false, readOnly: false, help: false, version: false, review: false, portGiven: false });
    expect(parseCommandLine(['--http', '--port', '0', 'a']).stdio).toBe(false);
    expect(parseCommandLine(['--read-only', 'a']).readOnly).toBe(true);
  });

  it('a config file serves HTTP unless --stdio', () => {
    expect(parseCommandLine(['--config', 'x.yaml'])).toEqual({ config: 'x.yaml', dirs: [], stdio: false, clientRoots: false, readOnly: false, help: false, version: false, review: false, portGiven: false });
    expect(parseCommandLine(['--stdio', '--config', 'x.yaml']).stdio).toBe(true);
  });

  it('with neither DIR nor a config file, serves stdio with the client\'s folders (--read-only allowed); --http does not', () => {
    expect(parseCommandLine([])).toEqual({ config: undefined, dirs: [], stdio: true, clientRoots: true, readOnly: false, help: false, version: false, review: false, portGiven: false });
    expect(parseCommandLine(['--read-only', '--toolsets', 'editor'])).toMatchObject({ stdio: true, clientRoots: true, readOnly: true });
    expect(parseCommandLine([], { MCP_FS_CONFIG: 'x.yaml' })).toMatchObject({ clientRoots: false, stdio: false });
    expect(parseCommandLine(['--http'])).toMatchObject({ clientRoots: false, stdio: false });
    expect(parseCommandLine(['--help']).clientRoots).toBe(false);
  });

  it('review: the /changes page for the same config or DIRs, loaded as a stdio server would; a free port unless --port', () => {
    expect(parseCommandLine(['review', '--config', 'x.yaml'])).toEqual({ config: 'x.yaml', dirs: [], stdio: true, clientRoots: false, readOnly: false, help: false, version: false, review: true, portGiven: false });
    expect(parseCommandLine(['review', '--port', '9000', 'a'])).toMatchObject({ dirs: ['a'], review: true, portGiven: true, clientRoots: false });
    expect(parseCommandLine(['review'], { MCP_FS_CONFIG: 'x.yaml' })).toMatchObject({ review: true, clientRoots: false });
    expect(errorOf(() => parseCommandLine(['review'])).message).toContain('review needs the roots');
    expect(errorOf(() => parseCommandLine(['review', '--http', 'a'])).message).toContain('--http and --stdio do not apply');
    expect(parseCommandLine(['a', 'review'])).toMatchObject({ review: false, dirs: ['a', 'review'] });
  });

  it('recognises --help and --version', () => {
    expect(parseCommandLine(['--help']).help).toBe(true);
    expect(parseCommandLine(['--version']).version).toBe(true);
  });

  it.each([
    [['--config', 'x.yaml', 'dir'], {}, 'DIR arguments and --config exclude each other'],
    [['dir'], { MCP_FS_CONFIG: 'x.yaml' }, 'DIR arguments and MCP_FS_CONFIG exclude each other'],
    [['--http', '--stdio', 'dir'], {}, '--http and --stdio exclude each other'],
    [['--read-only', '--config', 'x.yaml'], {}, '--read-only applies to DIR arguments'],
    [['--prot', '1', 'dir'], {}, "Unknown option '--prot'"],
  ])('refuses %j in one line', (argv, env, reason) => {
    const error = errorOf(() => parseCommandLine(argv, env));
    expect(error).toBeInstanceOf(CommandLineError);
    expect(error.message).toContain(reason);
    expect(error.message).toMatch(/^mcp-filesystem: [^\n]*\(see mcp-filesystem --help\)$/);
  });

  it('the help names every option the parser accepts and every environment variable of the schema', async () => {
    const { configSchema } = await import('../../src/config/schema.js');
    for (const flag of ['--config', '--read-only', '--http', '--stdio', '--host', '--port', '--toolsets', '--max-file-size', '--help', '--version']) {
      expect(HELP).toContain(flag);
    }
    const envNames = JSON.stringify(configSchema).match(/MCP_FS_[A-Z_]+/g) ?? [];
    expect(envNames.length).toBeGreaterThan(5);
    for (const name of [...envNames, 'MCP_FS_CONFIG']) expect(HELP).toContain(name);
  });
});

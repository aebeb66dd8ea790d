import { DomainError, errors } from '../../../src/domain/errors.js';
import { namingArgument, namingRoot } from '../../../src/domain/search/argument-errors.js';
import { thrownDomainError } from '../../support/domain.js';

const throwing = (error: DomainError) => (): never => {
  throw error;
};

describe('namingRoot', () => {
  it('returns what the check returns', () => {
    expect(namingRoot('workspace', () => 42)).toBe(42);
  });

  it('NFR-011: appends the root to an INVALID_ARGUMENT, keeping its code', () => {
    const error = thrownDomainError(() => namingRoot('workspace', throwing(errors.invalidArgument('max_depth must be a positive integer, got 0'))));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: max_depth must be a positive integer, got 0 (root: workspace)');
    expect(error.logDetails.root).toBe('workspace');
  });

  it('leaves other errors alone: they already name their root', () => {
    const notFound = errors.notFound('path', 'workspace', 'nope');
    expect(thrownDomainError(() => namingRoot('workspace', throwing(notFound)))).toBe(notFound);
  });
});

describe('namingArgument', () => {
  it('names the parameter a parse error came from; namingRoot then adds the root', () => {
    const parse = throwing(errors.invalidArgument('missing ]: [unclosed'));
    expect(thrownDomainError(() => namingArgument('regex', parse)).toClientText()).toBe('INVALID_ARGUMENT: invalid regex: missing ]: [unclosed');
    expect(thrownDomainError(() => namingRoot('workspace', () => namingArgument('glob_filter', parse))).message).toBe(
      'invalid glob_filter: missing ]: [unclosed (root: workspace)',
    );
  });

  it('leaves other errors alone', () => {
    const denied = new DomainError('ACCESS_DENIED', 'denied');
    expect(thrownDomainError(() => namingArgument('regex', throwing(denied)))).toBe(denied);
  });
});

import { DomainError, errors } from '../../../src/domain/errors.js';
import { namingRoot } from '../../../src/domain/search/argument-errors.js';

const throwing = (error: DomainError) => (): never => {
  throw error;
};

function failureOf(check: () => unknown): DomainError {
  try {
    check();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('namingRoot', () => {
  it('returns what the check returns', () => {
    expect(namingRoot('workspace', () => 42)).toBe(42);
  });

  it('NFR-011: appends the root to an INVALID_ARGUMENT, keeping its code', () => {
    const error = failureOf(() => namingRoot('workspace', throwing(errors.invalidArgument('max_depth must be a positive integer, got 0'))));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: max_depth must be a positive integer, got 0 (root: workspace)');
    expect(error.logDetails.root).toBe('workspace');
  });

  it('leaves other errors alone: they already name their root', () => {
    const notFound = errors.notFound('path', 'workspace', 'nope');
    expect(failureOf(() => namingRoot('workspace', throwing(notFound)))).toBe(notFound);
  });
});

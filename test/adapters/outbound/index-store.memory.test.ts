import { InMemoryIndexStore } from '../../../src/adapters/outbound/in-memory-index-store.js';
import { makeRoot } from '../../support/roots.js';
import { indexStoreContract } from './index-store.contract.js';

describe('index store contract: InMemoryIndexStore', () => {
  indexStoreContract(async () => {
    const store = new InMemoryIndexStore();
    return {
      store,
      roots: [makeRoot('a', '/a'), makeRoot('b', '/b')],
      repoint: async (root) => store.repoint(root.hostPath),
      cleanup: async () => undefined,
    };
  });
});

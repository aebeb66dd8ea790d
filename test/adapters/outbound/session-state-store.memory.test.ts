import { InMemorySessionState } from '../../../src/adapters/outbound/in-memory-session-state.js';
import { sessionStateStoreContract } from './session-state-store.contract.js';

describe('session store contract: InMemorySessionState', () => {
  sessionStateStoreContract(async (limits) => new InMemorySessionState(limits));
});

import { InMemoryChangeJournal } from '../../../../src/adapters/outbound/journal/in-memory-change-journal.js';
import { changeJournalContract } from './change-journal.contract.js';

describe('change journal contract: InMemoryChangeJournal', () => {
  changeJournalContract((clock) => {
    const journal = new InMemoryChangeJournal(clock);
    return { journal, reopen: () => journal.restarted() };
  });
});

import { InProcessChangeFeed } from '../../../../src/adapters/outbound/feed/in-process-change-feed.js';
import { changeFeedContract } from './change-feed.contract.js';

describe('change feed contract: InProcessChangeFeed', () => {
  changeFeedContract(async () => new InProcessChangeFeed());
});

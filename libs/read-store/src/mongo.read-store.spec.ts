import { readStoreContract } from './read-store.contract';
import { MongoReadStore } from './mongo.read-store';

// The same contract against MongoDB whenever MONGO_URL is set (e.g.
// mongodb://localhost:27017/?replicaSet=rs0&directConnection=true from the host). No MongoDB can run on the
// development machine or in CI, so there it is skipped.
const url = process.env.MONGO_URL;
(url ? describe : describe.skip)(`MongoDB read store (${url ? url : 'skipped: MONGO_URL not set'})`, () => {
  readStoreContract(async () => new MongoReadStore(url!, `gridrocket_contract_${Date.now()}`).connect());
});

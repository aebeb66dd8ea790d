// Loaded into the server with `node --import` by profile-alloc.mjs (never shipped): SIGUSR2 starts V8's
// sampling heap profiler, counting objects the garbage collector has already freed too (what a call
// allocates, not what it keeps); the next SIGUSR2 writes the profile to MCPFS_ALLOC_PROFILE.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const session = new Session();
session.connect();
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
let sampling = false;
process.on('SIGUSR2', async () => {
  if (!sampling) {
    sampling = true;
    await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    return;
  }
  const { profile } = await post('HeapProfiler.stopSampling');
  sampling = false;
  writeFileSync(process.env.MCPFS_ALLOC_PROFILE, JSON.stringify(profile));
});

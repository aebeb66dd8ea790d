/**
 * The Lua scripts of the Redis record index (redis-change-journal.ts). Each runs atomically in
 * Redis, so two replicas never see a record half changed and the running totals never drift from
 * the records. ARGV[1] is always the key prefix; keys are made from it inside the script (one
 * Redis, not a cluster, as the session store). Under the prefix:
 *   record:<id>        hash: record (JSON), state, owner (while pending), ms, principal,
 *                      after (JSON, set by commit), dropped (the reason), undoneBy,
 *                      claim (JSON: the undo in flight, its owner and plan; gone once finished)
 *   ids                hash: id -> "<image bytes> <principal>", for every record (the totals' truth)
 *   pending            sorted set of ids begun and not yet committed, by time (ms)
 *   all                sorted set of committed ids, by time (ms); equal times sort by id
 *   principal:<name>   the same, one principal's
 *   images             committed ids that still hold a before-image, by time: eviction order
 *   bytes, records     running totals (usage() reads these, never the records)
 *   last               the newest id minted, so a restarted replica mints later ones
 *   owner:<instance>   a live server's heartbeat; its pending records are not recovery's
 *   claims             hash: id -> owner instance, for every undo in flight (recovery's index)
 * Every key expires with the retention, refreshed when written; the shared ones on every write,
 * so they outlive every record they index.
 */

/** Refreshes the TTL (ms, ARGV[ttlArg]) of the keys every record shares. */
const touchShared = (ttlArg: number) => `
for _, name in ipairs({'ids', 'pending', 'all', 'images', 'bytes', 'records', 'last', 'claims'}) do
  redis.call('PEXPIRE', ARGV[1] .. name, ARGV[${ttlArg}])
end`;

/** Reads ids[id] into `bytes` and `principal` (nil when there is no such record). */
const READ_ENTRY = `
local entry = redis.call('HGET', P .. 'ids', id)
local bytes, principal = 0, nil
if entry then
  local space = string.find(entry, ' ', 1, true)
  bytes = tonumber(string.sub(entry, 1, space - 1))
  principal = string.sub(entry, space + 1)
end`;

/** ARGV: prefix, id, record JSON, owner instance, image bytes, ttl ms, time ms, principal. */
export const BEGIN_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
local key = P .. 'record:' .. id
redis.call('HSET', key, 'record', ARGV[3], 'state', 'pending', 'owner', ARGV[4], 'ms', ARGV[7], 'principal', ARGV[8])
redis.call('PEXPIRE', key, ARGV[6])
redis.call('ZADD', P .. 'pending', ARGV[7], id)
redis.call('HSET', P .. 'ids', id, ARGV[5] .. ' ' .. ARGV[8])
redis.call('INCR', P .. 'records')
redis.call('INCRBY', P .. 'bytes', ARGV[5])
local last = redis.call('GET', P .. 'last')
if not last or id > last then redis.call('SET', P .. 'last', id) end
${touchShared(6)}
return 1`;

/** ARGV: prefix, id, '1' when an after-state is given, its JSON, ttl ms. 0: no such record. */
export const COMMIT_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
local key = P .. 'record:' .. id
local state = redis.call('HGET', key, 'state')
if not state then return 0 end
if ARGV[3] == '1' then redis.call('HSET', key, 'after', ARGV[4]) end
if state == 'committed' then return 1 end
${READ_ENTRY}
local ms = redis.call('HGET', key, 'ms')
redis.call('HSET', key, 'state', 'committed')
redis.call('HDEL', key, 'owner')
redis.call('PEXPIRE', key, ARGV[5])
redis.call('ZREM', P .. 'pending', id)
redis.call('ZADD', P .. 'all', ms, id)
local own = P .. 'principal:' .. redis.call('HGET', key, 'principal')
redis.call('ZADD', own, ms, id)
redis.call('PEXPIRE', own, ARGV[5])
if bytes > 0 then redis.call('ZADD', P .. 'images', ms, id) end
${touchShared(5)}
return 1`;

/**
 * Forgets a record (abort, prune, a pending record whose hash expired). The totals come from ids,
 * which outlives the record's own hash, so they stay exact. ARGV: prefix, id. 1: it was there.
 */
export const REMOVE_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
${READ_ENTRY}
for _, name in ipairs({'all', 'pending', 'images'}) do redis.call('ZREM', P .. name, id) end
if principal then
  redis.call('ZREM', P .. 'principal:' .. principal, id)
  redis.call('HDEL', P .. 'ids', id)
  redis.call('DECR', P .. 'records')
  if bytes > 0 then redis.call('DECRBY', P .. 'bytes', bytes) end
end
redis.call('DEL', P .. 'record:' .. id)
redis.call('HDEL', P .. 'claims', id)
if principal then return 1 end
return 0`;

/** The record stays, not undoable, with the reason; its bytes leave the total once. ARGV: prefix, id, reason. */
export const DROP_IMAGE_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
${READ_ENTRY}
if not principal then return 0 end
if bytes > 0 then
  redis.call('DECRBY', P .. 'bytes', bytes)
  redis.call('HSET', P .. 'ids', id, '0 ' .. principal)
end
redis.call('ZREM', P .. 'images', id)
if redis.call('EXISTS', P .. 'record:' .. id) == 1 then redis.call('HSET', P .. 'record:' .. id, 'dropped', ARGV[3]) end
return 1`;

/**
 * Of any number of undos of one change, on any replicas, exactly one gets 1: the claim (the undo in
 * flight) is set; undoneBy only by FINISH_SCRIPT. ARGV: prefix, id, claim JSON, owner instance, ttl ms.
 */
export const CLAIM_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
local key = P .. 'record:' .. id
if redis.call('HGET', key, 'state') ~= 'committed' or redis.call('HEXISTS', key, 'undoneBy') == 1 then return 0 end
if redis.call('HSETNX', key, 'claim', ARGV[3]) == 0 then return 0 end
redis.call('HSET', P .. 'claims', id, ARGV[4])
redis.call('PEXPIRE', P .. 'claims', ARGV[5])
return 1`;

/** The restore is on disk: undoneBy from the claim, which goes. ARGV: prefix, id. */
export const FINISH_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
local key = P .. 'record:' .. id
local claim = redis.call('HGET', key, 'claim')
if claim then redis.call('HSET', key, 'undoneBy', cjson.decode(claim).undoId) end
redis.call('HDEL', key, 'claim')
redis.call('HDEL', P .. 'claims', id)
return 1`;

/** The claim goes; the record is as it was. ARGV: prefix, id. */
export const RELEASE_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
redis.call('HDEL', P .. 'record:' .. id, 'claim')
redis.call('HDEL', P .. 'claims', id)
return 1`;

/** A gone server's claim becomes this one's, unless another took it first. ARGV: prefix, id, gone owner, new owner, new claim JSON. */
export const ADOPT_SCRIPT = `
local P, id = ARGV[1], ARGV[2]
if redis.call('HGET', P .. 'claims', id) ~= ARGV[3] then return 0 end
redis.call('HSET', P .. 'claims', id, ARGV[4])
redis.call('HSET', P .. 'record:' .. id, 'claim', ARGV[5])
return 1`;

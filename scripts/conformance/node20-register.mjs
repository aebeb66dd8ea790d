// `node --import` this to run the conformance suite on Node 20 (see node20-fs-hook.mjs).
import { register } from 'node:module';

register('./node20-fs-hook.mjs', import.meta.url);

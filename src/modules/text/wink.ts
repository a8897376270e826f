import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';
import type Model from 'wink-eng-lite-web-model';

export type Wink = ReturnType<typeof winkNLP>;

/**
 * wink-nlp with its English lite model (inside the npm package: nothing is downloaded), loaded
 * when first needed by sentiment.ts or the insights engine: importing the two is ~80 ms and the
 * model's load ~100 ms more, which every start paid before (issue 15).
 */
export function loadWink(pipes: Parameters<typeof winkNLP>[1]): Wink {
  const require = createRequire(import.meta.url);
  const load = require('wink-nlp') as typeof winkNLP;
  return load(require('wink-eng-lite-web-model') as typeof Model, pipes);
}

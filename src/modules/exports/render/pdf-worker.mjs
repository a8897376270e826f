// The worker thread's entry: plain JavaScript that registers tsx in this thread (a worker does
// not run its parent's loaders), then loads the TypeScript worker (pdf-worker.ts).
import { register } from 'tsx/esm/api';

register();
await import('./pdf-worker.ts');

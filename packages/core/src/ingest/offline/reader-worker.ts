// Entry of the offline distiller's reader worker (built as `offline-reader-worker.js`): loads the
// lexicon once, reads the built-in warm-up sample (the demo's conversation and the extra session of
// `warm-up-session.ts`, so the sessions it is sent run code that has seen the usual constructions
// of chat), then reads the sessions the main thread sends, one at a time,
// on the port it was given. See `session-reader.ts`.
import { workerData, type MessagePort } from 'node:worker_threads';
import { loadLexicon } from './lexicon.js';
import { answerRequest, warmUpRequests, type ReaderRequest, type ReaderResponse } from './session-reader.js';

const port = (workerData as { port: MessagePort }).port;
const lexicon = await loadLexicon();
for (const request of warmUpRequests()) answerRequest(request, lexicon);
port.on('message', (request: ReaderRequest) => {
  const { response, transfer } = answerRequest(request, lexicon);
  port.postMessage(response, transfer);
});
port.postMessage({ type: 'ready' } satisfies ReaderResponse);

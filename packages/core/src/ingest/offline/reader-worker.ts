// Entry of the offline distiller's reader worker (built as `offline-reader-worker.js`): loads the
// lexicon once, then reads the sessions the main thread sends, one at a time, on the port it was
// given. See `session-reader.ts`.
import { workerData, type MessagePort } from 'node:worker_threads';
import { loadLexicon } from './lexicon.js';
import { readSession, type SessionReadingInput } from './read-session.js';
import { encodeReadings, type ReaderRequest, type ReaderResponse } from './session-reader.js';

const port = (workerData as { port: MessagePort }).port;
const lexicon = await loadLexicon();
port.on('message', (request: ReaderRequest) => {
  let response: ReaderResponse;
  try {
    response = { type: 'read', id: request.id, readings: encodeReadings(readSession(JSON.parse(request.input) as SessionReadingInput, lexicon)) };
  } catch (error) {
    response = { type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response);
});
port.postMessage({ type: 'ready' } satisfies ReaderResponse);

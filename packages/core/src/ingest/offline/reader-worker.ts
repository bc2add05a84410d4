// Entry of the offline distiller's reader worker (built as `offline-reader-worker.js`): loads the
// lexicon once, then reads the sessions the main thread sends, one at a time, on the port it was
// given. See `session-reader.ts`.
import { workerData, type MessagePort } from 'node:worker_threads';
import { loadLexicon } from './lexicon.js';
import { embedTurns, readSession, type SessionReadingInput } from './read-session.js';
import { encodeReadings, type ReaderRequest, type ReaderResponse } from './session-reader.js';

const port = (workerData as { port: MessagePort }).port;
const lexicon = await loadLexicon();
port.on('message', (request: ReaderRequest) => {
  let response: ReaderResponse;
  let vectors: Float32Array<ArrayBuffer> | undefined;
  try {
    const input = JSON.parse(request.input) as SessionReadingInput;
    const readings = encodeReadings(readSession(input, lexicon));
    // The turn texts' vectors, when asked: this thread has the time, the distilling one does not.
    vectors = embedTurns(input);
    response = { type: 'read', id: request.id, readings, ...(vectors === undefined ? {} : { vectors: vectors.buffer }) };
  } catch (error) {
    vectors = undefined;
    response = { type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response, vectors === undefined ? [] : [vectors.buffer]);
});
port.postMessage({ type: 'ready' } satisfies ReaderResponse);

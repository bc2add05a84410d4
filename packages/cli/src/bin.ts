#!/usr/bin/env node
import { runCli } from './run-cli.js';

// A reader that goes away (`engram demo | head`) is not an error of ours: stop writing to it and let
// the command finish normally, so the store is closed cleanly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2));

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ParsedArguments } from '../cli-arguments.js';
import { exitCodes } from '../cli-errors.js';
import { resolveSettings } from '../cli-settings.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { openMemory } from '../memory/open-memory.js';
import type { CliIo } from '../output/terminal.js';

/**
 * `engram mcp`: serves the memory over stdio until the client closes stdin (or SIGINT/SIGTERM),
 * then releases the store. stdout carries the protocol only; notes go to stderr.
 */
export async function runMcpCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const settings = resolveSettings({ store: args.strings.store, user: args.strings.user }, io.env, io.cwd);
  const memory = await openMemory({ path: settings.store, readOnly: false, warn: (message) => io.stderr.write(`engram mcp: warning: ${message}\n`) });
  try {
    const server = createMcpServer(memory, { defaultUser: settings.user ?? 'default' });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
      transport.onclose = resolve;
    });
    await server.connect(transport);
    io.stderr.write(`engram mcp: serving ${settings.store} over stdio (tools: remember, recall, forget)\n`);
    await closed;
    await server.close();
  } finally {
    await memory.close();
  }
  return exitCodes.ok;
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, binPath, cleanEnvironment, parseJson, runEngram } from './__fixtures__/run-engram.js';

let directory: string;

beforeAll(async () => {
  assertBuilt();
  directory = await mkdtemp(join(tmpdir(), 'engram-mcp-'));
});

afterAll(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((item) => item.text ?? '').join('\n');
}

describe('engram mcp', () => {
  it('offers remember, recall and forget to an MCP client over stdio', async () => {
    const store = join(directory, 'store');
    const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, 'mcp', '--store', store, '--user', 'dana'], env: cleanEnvironment(), stderr: 'pipe' });
    let serverErrors = '';
    transport.stderr?.on('data', (chunk: Buffer) => (serverErrors += chunk.toString('utf8')));
    const client = new Client({ name: 'engram-cli-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['forget', 'recall', 'remember']);
      const remember = tools.find((tool) => tool.name === 'remember');
      expect(remember?.inputSchema.properties).toHaveProperty('messages');

      const messages = [
        { role: 'user', speaker: 'Dana', content: 'My daughter Ines starts school in Lyon next September.', timestamp: '2024-05-02T08:00:00Z', sessionId: 'morning' },
        { role: 'assistant', content: 'How exciting for Ines! Is she nervous?', timestamp: '2024-05-02T08:00:04Z', sessionId: 'morning' },
        { role: 'user', speaker: 'Dana', content: 'A little, but she already loves her new red backpack.', timestamp: '2024-05-02T08:01:00Z', sessionId: 'morning' },
      ];
      const remembered = await client.callTool({ name: 'remember', arguments: { messages } });
      expect(remembered.isError, textOf(remembered)).toBeFalsy();
      expect(textOf(remembered)).toMatch(/^remembered 3 turns for dana/);
      const again = await client.callTool({ name: 'remember', arguments: { messages } });
      expect(textOf(again)).toMatch(/^remembered 0 turns for dana.*3 already remembered/);
      await client.callTool({ name: 'remember', arguments: { userId: 'eli', messages: [{ role: 'user', content: 'I keep bees on my roof in Leeds.' }] } });

      const recalled = await client.callTool({ name: 'recall', arguments: { query: 'Where does Ines go to school?', k: 3 } });
      expect(recalled.isError, textOf(recalled)).toBeFalsy();
      const lines = textOf(recalled).split('\n');
      expect(lines.length).toBeGreaterThan(0);
      expect(lines[0]).toMatch(/^1\. \[2 May 2024[^\]]*\] /);
      expect(textOf(recalled)).toContain('starts school in Lyon');
      expect(textOf(recalled)).not.toContain('bees');

      const invalid = await client.callTool({ name: 'recall', arguments: { query: '' } });
      expect(invalid.isError).toBe(true);

      const forgotten = await client.callTool({ name: 'forget', arguments: { userId: 'dana' } });
      expect(textOf(forgotten)).toBe('forgot everything of dana');
      const empty = await client.callTool({ name: 'recall', arguments: { query: 'Where does Ines go to school?' } });
      expect(textOf(empty)).toMatch(/^no memory of dana matches/);
      const eli = await client.callTool({ name: 'recall', arguments: { query: 'bees', userId: 'eli' } });
      expect(textOf(eli)).toContain('I keep bees on my roof in Leeds.');
    } finally {
      await client.close();
    }
    expect(serverErrors).toContain(`engram mcp: serving ${store} over stdio`);
    // The server released the store when the client went away: a writer can open it again.
    const stats = await runEngram(['stats', '--store', store, '--json'], { cwd: directory });
    expect(parseJson(stats).users).toEqual({ eli: expect.objectContaining({ turns: 1 }) });
    const ingest = await runEngram(['forget', '--user', 'eli', '--store', store], { cwd: directory });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stderr).not.toContain('warning');
  });
});

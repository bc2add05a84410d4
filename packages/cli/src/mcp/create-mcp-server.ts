import { renderEvidence } from '@engram/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { describeError } from '../cli-errors.js';
import { strategyNames } from '../cli-settings.js';
import type { OpenMemory } from '../memory/open-memory.js';
import { addUsers, removeUser } from '../memory/user-registry.js';
import { evidenceReasons } from '../output/render-recall.js';

const messageSchema = z.object({
  role: z.string().min(1).optional().describe('user / assistant'),
  speaker: z.string().min(1).optional().describe('who said it, when there are named speakers (else the role is used)'),
  content: z.string().min(1).describe('what was said'),
  timestamp: z.string().min(1).optional().describe('when it was said (ISO date-time); now when omitted'),
  sessionId: z.string().min(1).optional().describe('groups messages into one session (conversation)'),
});

type ToolResult = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

async function guard(task: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await task();
  } catch (error) {
    return { content: [{ type: 'text', text: describeError(error) }], isError: true };
  }
}

/**
 * An MCP server over an open memory with three tools: `remember` (chat messages → memory),
 * `recall` (a query → evidence, each line with its coordinates) and `forget` (a whole user).
 */
export function createMcpServer(memory: OpenMemory, options: { defaultUser: string }): McpServer {
  const server = new McpServer({ name: 'engram', version: packageJson.version });
  const userOf = (userId: string | undefined) => userId ?? options.defaultUser;

  server.registerTool(
    'remember',
    {
      title: 'Remember messages',
      description: 'Stores chat messages in long-term memory. Adding the same messages again stores nothing new.',
      inputSchema: {
        messages: z.array(messageSchema).min(1).describe('the messages, oldest first'),
        userId: z.string().min(1).max(256).optional().describe(`whose memory (default "${options.defaultUser}")`),
      },
    },
    ({ messages, userId }) =>
      guard(async () => {
        const user = userOf(userId);
        await addUsers(memory.path, [user]);
        const counts = await memory.engram.add(messages, { userId: user });
        const skipped = counts.skippedTurns > 0 ? `; ${counts.skippedTurns} already remembered` : '';
        return text(`remembered ${counts.turns} turns for ${user}: ${counts.episodes} episodes, ${counts.facts} facts, ${counts.topics} topics${skipped}`);
      }),
  );

  server.registerTool(
    'recall',
    {
      title: 'Recall evidence',
      description:
        'Recalls evidence from long-term memory for a question. Each line is one item with its coordinates: ' +
        '[<date said>; event <when it happened>; <entity · aspect>; at <place>] text — followed by why it was chosen.',
      inputSchema: {
        query: z.string().min(1).describe('the question or topic'),
        userId: z.string().min(1).max(256).optional().describe(`whose memory (default "${options.defaultUser}")`),
        k: z.number().int().min(1).max(100).optional().describe('how many items (default 10)'),
        strategy: z.enum(strategyNames).optional().describe('recall strategy (default active)'),
      },
    },
    ({ query, userId, k, strategy }) =>
      guard(async () => {
        const user = userOf(userId);
        const result = await memory.engram.recall(query, { scope: { userId: user }, k: k ?? 10, strategy: strategy ?? 'active' });
        if (result.evidence.length === 0) return text(`no memory of ${user} matches "${query}"`);
        const lines = result.evidence.map((evidence, index) => {
          const why = evidenceReasons(evidence).slice(0, 2).join('; ');
          return `${index + 1}. ${renderEvidence(evidence).replace(/\n/g, ' / ')}${why.length > 0 ? ` (why: ${why})` : ''}`;
        });
        return text(lines.join('\n'));
      }),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a user',
      description: 'Removes everything remembered for one user. This cannot be undone.',
      inputSchema: { userId: z.string().min(1).max(256).describe('the user to forget') },
      annotations: { destructiveHint: true },
    },
    ({ userId }) =>
      guard(async () => {
        await memory.engram.forget({ userId });
        await removeUser(memory.path, userId);
        return text(`forgot everything of ${userId}`);
      }),
  );

  return server;
}

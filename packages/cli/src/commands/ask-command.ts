import type { ParsedArguments } from '../cli-arguments.js';
import { UsageError, exitCodes } from '../cli-errors.js';
import { resolveSettings } from '../cli-settings.js';
import { describeUsage, loadModels } from '../memory/load-models.js';
import { chooseUser, openMemory } from '../memory/open-memory.js';
import { recallJson, renderRecallText } from '../output/render-recall.js';
import { colorsFor, writeJson, writeLines, type CliIo } from '../output/terminal.js';

/** Said once per run when no answering model is configured. */
export const noModelNote = 'no model configured: showing evidence only';

/** `engram ask "<question>"`: recalls evidence from a reader of the store (it works beside a running writer). */
export async function runAskCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const question = args.positionals.join(' ').trim();
  if (question.length === 0) throw new UsageError('the question is empty');
  const date = args.strings.date;
  if (date !== undefined && Number.isNaN(Date.parse(date))) throw new UsageError(`--date: expected an ISO date such as 2024-07-01, got ${JSON.stringify(date)}`);
  const settings = resolveSettings({ store: args.strings.store, user: args.strings.user, strategy: args.strings.strategy, k: args.strings.k }, io.env, io.cwd);

  const models = await loadModels(settings, io.env);
  const memory = await openMemory({
    path: settings.store,
    readOnly: true,
    warn: (message) => io.stderr.write(`engram: warning: ${message}\n`),
    ...(models?.navigator ? { navigator: models.navigator } : {}),
  });
  try {
    const user = await chooseUser(settings.store, settings.user);
    const result = await memory.engram.recall(question, {
      scope: { userId: user },
      strategy: settings.strategy,
      k: settings.k,
      ...(date === undefined ? {} : { questionDate: date }),
    });
    const answerer = models?.answerer;
    const answer = answerer === undefined ? undefined : (await answerer.answer({ question, evidence: result.evidence, ...(date === undefined ? {} : { questionDate: date }) })).answer;
    if (answerer === undefined) io.stderr.write(`${colorsFor(io.stderr, io.env).yellow(`${noModelNote} (set ENGRAM_MODEL=<provider>:<model> for an answer)`)}\n`);
    const usage = models?.meter.total();
    const view = { user, k: settings.k, trace: args.flags.trace === true };
    if (args.flags.json) {
      const json = recallJson(result, view);
      writeJson(io.stdout, answerer === undefined ? json : { ...json, answer, model: { answerer: answerer.name, ...(models?.navigator ? { navigator: models.navigator.name } : {}), usage } });
    } else {
      const colors = colorsFor(io.stdout, io.env);
      if (answer !== undefined) writeLines(io.stdout, [`${colors.bold('Answer:')} ${answer}`, '']);
      writeLines(io.stdout, renderRecallText(result, { ...view, colors }));
    }
    if (usage !== undefined) io.stderr.write(`${describeUsage(usage)}\n`);
  } finally {
    await memory.close();
  }
  return exitCodes.ok;
}

import { useEffect, useState, type FormEvent } from 'react';
import { api, type AskPayload, type PlaygroundStrategy, type QuestionPayload } from '../api.js';
import { StrategyColumn } from './strategy-column.js';
import { TrajectoryView } from './trajectory-view.js';
import { ErrorMessage } from './error-message.js';

const strategies: PlaygroundStrategy[] = ['similarity', 'ramem', 'active', 'graph'];
const sampleQuestions = ['Where does Maya live now?', 'What did Tom do before he opened the bakery?', 'When did Maya adopt Pepper?'];

/** Asks one question under several strategies side by side, with the active trajectory and gold hits. */
export function AskPanel({ user, revision, onShow }: { user: string; revision: number; onShow: (id: string) => void }) {
  const [question, setQuestion] = useState('');
  const [questionId, setQuestionId] = useState<string>();
  const [chosen, setChosen] = useState<PlaygroundStrategy[]>(['similarity', 'ramem', 'active']);
  const [k, setK] = useState(10);
  const [benchmark, setBenchmark] = useState<QuestionPayload[]>([]);
  const [answer, setAnswer] = useState<AskPayload>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    setAnswer(undefined);
    setQuestion('');
    setQuestionId(undefined);
  }, [user]);

  useEffect(() => {
    let live = true;
    api.questions(user).then(
      (value) => live && setBenchmark(value),
      () => live && setBenchmark([]),
    );
    return () => {
      live = false;
    };
  }, [user, revision]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      setAnswer(await api.ask({ user, question, ...(questionId ? { questionId } : {}), strategies: chosen, k }));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  };

  const active = answer?.results.find((result) => result.strategy === 'active');
  const gold = answer?.benchmark;
  return (
    <>
      <form className="panel ask-form" onSubmit={(event) => void submit(event)} aria-label="ask a question">
        <div className="question-row">
          <input
            value={question}
            list="asked-questions"
            onChange={(event) => {
              setQuestion(event.target.value);
              setQuestionId(undefined);
            }}
            placeholder="Ask the memory a question…"
            aria-label="question"
          />
          <datalist id="asked-questions">
            {(benchmark.length > 0 ? [] : sampleQuestions).map((text) => (
              <option key={text} value={text} />
            ))}
          </datalist>
          <button type="submit" disabled={busy || question.trim() === '' || chosen.length === 0}>
            {busy ? 'Asking…' : 'Ask'}
          </button>
        </div>
        {benchmark.length > 0 ? (
          <label className="benchmark-picker">
            benchmark question ({benchmark.length}, with gold evidence)
            <select
              aria-label="benchmark question"
              value={questionId ?? ''}
              onChange={(event) => {
                const picked = benchmark.find((item) => item.id === event.target.value);
                setQuestionId(picked?.id);
                if (picked) setQuestion(picked.question);
              }}
            >
              <option value="">(pick one)</option>
              {benchmark.map((item) => (
                <option key={item.id} value={item.id}>
                  [{item.category}] {item.question}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className="options-row">
          {strategies.map((strategy) => (
            <label key={strategy}>
              <input
                type="checkbox"
                checked={chosen.includes(strategy)}
                onChange={() => setChosen(chosen.includes(strategy) ? chosen.filter((entry) => entry !== strategy) : strategies.filter((entry) => entry === strategy || chosen.includes(entry)))}
              />
              {strategy}
            </label>
          ))}
          <label>
            k
            <input type="number" min={1} max={50} value={k} onChange={(event) => setK(Math.max(1, Math.min(50, Number(event.target.value) || 10)))} aria-label="k" />
          </label>
        </div>
        <ErrorMessage error={error} />
      </form>
      {gold ? (
        <section className="panel gold" data-testid="gold">
          <strong>Gold</strong> [{gold.category}] answer: <em>{gold.answer ?? '(none: the question cannot be answered from the conversation)'}</em>
          <ul>
            {gold.evidenceTurns.map((turnId) => (
              <li key={turnId}>
                <code>{turnId}</code> {gold.goldTurnTexts[turnId] ?? <em>(turn not in memory)</em>}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {answer ? (
        <div className="columns" style={{ gridTemplateColumns: `repeat(${answer.results.length}, minmax(0, 1fr))` }} data-testid="strategy-columns">
          {answer.results.map((result) => (
            <StrategyColumn key={result.strategy} result={result} onShow={onShow} />
          ))}
        </div>
      ) : null}
      {active ? <TrajectoryView trace={active.trace} evidence={active.evidence} /> : null}
    </>
  );
}
